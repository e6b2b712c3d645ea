#include "gateway/router.h"

#include <algorithm>

namespace clawtools {

namespace {

std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> segments;
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (true) {
    size_t slash = path.find('/');
    segments.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return segments;
}

bool IsCapture(std::string_view segment) {
  return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

}  // namespace

void Router::Add(std::string method, std::string pattern, HttpHandler handler, RouteTraits traits) {
  std::vector<std::string> segments;
  for (std::string_view s : SplitPath(pattern)) segments.emplace_back(s);
  routes_.push_back(Route{.method = std::move(method),
                          .pattern = std::move(pattern),
                          .segments = std::move(segments),
                          .handler = std::move(handler),
                          .traits = traits});
}

RouteMatch Router::Match(std::string_view method, std::string_view path) const {
  RouteMatch match;
  std::vector<std::string_view> segments = SplitPath(path);
  for (const Route& route : routes_) {
    if (route.segments.size() != segments.size()) continue;
    std::map<std::string, std::string, std::less<>> params;
    bool matched = true;
    bool bad_escape = false;
    for (size_t i = 0; i < segments.size() && matched; ++i) {
      const std::string& want = route.segments[i];
      if (!IsCapture(want)) {
        matched = want == segments[i];
      } else if (segments[i].empty()) {
        matched = false;
      } else if (auto value = PercentDecode(segments[i], false)) {
        params.emplace(want.substr(1, want.size() - 2), std::move(*value));
      } else {
        bad_escape = true;
      }
    }
    if (!matched) continue;
    if (route.method != method) {
      if (std::find(match.allowed_methods.begin(), match.allowed_methods.end(), route.method) ==
          match.allowed_methods.end()) {
        match.allowed_methods.push_back(route.method);
      }
      continue;
    }
    match.route = &route;
    match.params = std::move(params);
    match.bad_escape = bad_escape;
    match.allowed_methods.clear();
    return match;
  }
  return match;
}

}  // namespace clawtools
