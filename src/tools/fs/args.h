// Defensive argument access for the fs tools: the registry validates against the schema, but
// a tool called directly (tests, embedders) must still fail cleanly on a wrong type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/error.h"
#include "core/json.h"

namespace clawtools {

// The string `key`; `fallback` when absent or null; an error when present with another type.
Expected<std::string> StringArg(const Json& args, const char* key,
                                std::optional<std::string> fallback = std::nullopt);
// Integer `key` in [min, max]; `fallback` when absent.
Expected<int64_t> IntArg(const Json& args, const char* key, int64_t fallback, int64_t min,
                         int64_t max);
Expected<bool> BoolArg(const Json& args, const char* key, bool fallback);

}  // namespace clawtools
