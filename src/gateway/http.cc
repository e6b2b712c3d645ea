#include "gateway/http.h"

#include <strings.h>

namespace clawtools {

std::string_view HttpRequest::Header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key.size() == name.size() && strncasecmp(key.data(), name.data(), name.size()) == 0) {
      return value;
    }
  }
  return {};
}

std::optional<std::string_view> HttpRequest::Query(std::string_view key) const {
  auto it = query.find(key);
  if (it == query.end()) return std::nullopt;
  return it->second;
}

HttpResponse JsonResponse(int status, const Json& value) {
  return HttpResponse{.status = status,
                      .body = value.dump(-1, ' ', false, Json::error_handler_t::replace)};
}

HttpResponse ErrorResponse(int status, std::string_view message) {
  return JsonResponse(status, Json{{"error", message}});
}

HttpResponse ErrorResponseFor(const Error& e) {
  switch (e.code) {
    case ErrorCode::kInvalidArgument: return ErrorResponse(400, e.for_model);
    case ErrorCode::kNotFound: return ErrorResponse(404, e.for_model);
    case ErrorCode::kAlreadyExists: return ErrorResponse(409, e.for_model);
    case ErrorCode::kUnavailable: return ErrorResponse(503, e.for_model);
    default: return ErrorResponse(500, e.for_model);
  }
}

static int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> PercentDecode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      int hi = HexValue(s[i + 1]);
      int lo = HexValue(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

bool ParseTarget(std::string_view target, HttpRequest& request) {
  if (target.empty() || target.front() != '/') return false;
  size_t q = target.find('?');
  request.path = std::string(target.substr(0, q));
  if (q == std::string_view::npos) return true;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    size_t amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    auto key = PercentDecode(pair.substr(0, eq), true);
    auto value = PercentDecode(
        eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1), true);
    if (!key || !value) return false;
    request.query.insert_or_assign(std::move(*key), std::move(*value));
  }
  return true;
}

}  // namespace clawtools
