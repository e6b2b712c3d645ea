// Transport-neutral HTTP request and response values. Handlers and the router see only these,
// so Boost.Beast stays inside the server TU (a Beast coroutine TU costs ~37 s to compile).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/json.h"

namespace clawtools {

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string path;    // still percent-encoded, so an encoded '/' cannot forge a segment
  std::map<std::string, std::string, std::less<>> query;   // decoded; last value wins
  std::map<std::string, std::string, std::less<>> params;  // decoded `{param}` captures
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  // Case-insensitive; empty when absent.
  std::string_view Header(std::string_view name) const;
  std::optional<std::string_view> Query(std::string_view key) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

// `value` serialized compactly; invalid UTF-8 in tool output is replaced rather than throwing.
HttpResponse JsonResponse(int status, const Json& value);
// {"error": message}
HttpResponse ErrorResponse(int status, std::string_view message);
// An error value as a response: invalid argument 400, not found 404, already exists 409,
// unavailable 503, anything else 500; the body carries for_model (never SQL or paths).
HttpResponse ErrorResponseFor(const Error& e);

// Splits a request target ("/v1/tools?format=openai") into path and decoded query.
// False when the target is not origin-form or carries a malformed %-escape.
bool ParseTarget(std::string_view target, HttpRequest& request);

// %XX and (when `plus_is_space`, for query strings) '+' decoding. nullopt on a malformed escape.
std::optional<std::string> PercentDecode(std::string_view s, bool plus_is_space);

}  // namespace clawtools
