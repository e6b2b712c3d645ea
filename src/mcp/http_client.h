// A blocking libcurl HTTP exchange that streams the response body to a callback: the one
// primitive under the SSE and streamable HTTP transports. Each call uses its own easy handle
// (RAII), so calls on different threads never share curl state.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace clawtools::mcp {

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds connect_timeout{10000};
  // Whole exchange; zero for streams that stay open.
  std::chrono::milliseconds timeout{0};
};

struct HttpResponseHead {
  long status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased; the last value wins

  std::string Header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
};

struct HttpHandlers {
  // Called once, before any body byte (also for an empty body). Return false to abort.
  std::function<bool(const HttpResponseHead&)> on_head;
  // Body chunks as they arrive. Return false to abort.
  std::function<bool(std::string_view)> on_data;
};

// Runs the exchange to completion, abort, or `*stop` becoming true (libcurl checks it at least
// once a second, also while a stream is idle). Fails with kUnavailable on a transport error; an
// HTTP error status is not a failure here (on_head sees it). Returns the status code.
Expected<long> PerformHttp(const HttpRequest& request, const HttpHandlers& handlers,
                           const std::atomic<bool>* stop = nullptr);

}  // namespace clawtools::mcp
