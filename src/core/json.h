// The JSON value type used across clawtools (nlohmann::json, ordered by key for stable output).
#pragma once

#include <nlohmann/json.hpp>

namespace clawtools {

using Json = nlohmann::json;

// Parses JSON that may carry // and /* */ comments. Throws nothing: returns discarded on error.
inline Json ParseJsonLenient(std::string_view text) {
  return Json::parse(text, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
}

}  // namespace clawtools
