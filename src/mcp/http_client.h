// Blocking libcurl HTTP exchanges that stream the response body to a callback: the one
// primitive under the SSE and streamable HTTP transports.
//
// HttpClient keeps its connections between exchanges (HTTP keep-alive): a transport makes one
// and sends every request through it, so a call costs a request on an open connection instead
// of a TCP handshake. Each exchange borrows one curl handle from a small pool for its duration,
// so exchanges on different threads never share curl state and run concurrently.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
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
  // Checked as the body streams: once true, the caller has what it came for. The exchange
  // then gets a few milliseconds to end on its own, which keeps its connection for the next
  // one (an SSE answer is usually followed at once by the end of the stream); past that it is
  // cut, and so are the next few satisfied exchanges, without waiting.
  std::function<bool()> satisfied;
};

// Reasons to give up on an exchange before it ends.
struct HttpCancel {
  // The owner's shutdown flag; HttpClient::Interrupt() makes running exchanges see it at once.
  const std::atomic<bool>* stop = nullptr;
  // The caller's own stop (a cancelled call): seen at once.
  std::stop_token token;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

class HttpClient {
 public:
  HttpClient();
  ~HttpClient();  // no exchange may still be running
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Runs the exchange to completion or a handler's abort (both return the status code; an
  // HTTP error status is not a failure here, on_head sees it). Fails with kCancelled when
  // `cancel.stop` or `cancel.token` stops it, kDeadlineExceeded at `cancel.deadline`, and
  // kUnavailable on a transport error (no connection, a body cut short). Thread-safe.
  Expected<long> Perform(const HttpRequest& request, const HttpHandlers& handlers,
                         const HttpCancel& cancel = {});

  // Wakes every running exchange so that it checks its stop flag now.
  void Interrupt();

 private:
  struct Handle;
  std::unique_ptr<Handle> Borrow();
  void Return(std::unique_ptr<Handle> handle);

  std::mutex mu_;
  std::vector<std::unique_ptr<Handle>> idle_;
  std::vector<Handle*> active_;
  // Satisfied exchanges still to be cut without lingering (the last linger was in vain).
  std::atomic<int> skip_linger_{0};
};

// One exchange on a connection of its own (tests, one-off requests).
Expected<long> PerformHttp(const HttpRequest& request, const HttpHandlers& handlers,
                           const HttpCancel& cancel = {});

}  // namespace clawtools::mcp
