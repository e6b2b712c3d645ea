// Maps (method, path) to a handler. Patterns are literal segments and `{param}` captures:
// "/v1/tools/{name}/invoke". A capture matches exactly one non-empty segment; its value is
// percent-decoded into HttpRequest::params. Routes are added while wiring, before serving;
// Match is then safe from any thread.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gateway/http.h"

namespace clawtools {

// Handlers run either on an io thread or on the worker pool. They may throw: the server
// answers 500 and logs the exception.
using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

struct RouteTraits {
  // Runs on the worker pool: anything that can block or take long (tool calls). Inline
  // handlers must be cheap, since they hold an io thread.
  bool blocking = false;
  // Served without the bearer token (health checks).
  bool public_access = false;
};

struct Route {
  std::string method;
  std::string pattern;
  std::vector<std::string> segments;  // "{name}" marks a capture
  HttpHandler handler;
  RouteTraits traits;
};

struct RouteMatch {
  const Route* route = nullptr;  // null: no route for this method and path
  std::map<std::string, std::string, std::less<>> params;
  // When the path matched under other methods only: those methods, for 405 + Allow.
  std::vector<std::string> allowed_methods;
  // A capture held a malformed %-escape (the server answers 400).
  bool bad_escape = false;
};

class Router {
 public:
  void Add(std::string method, std::string pattern, HttpHandler handler, RouteTraits traits = {});
  RouteMatch Match(std::string_view method, std::string_view path) const;

 private:
  std::vector<Route> routes_;
};

}  // namespace clawtools
