#include "mcp/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>

namespace clawtools::mcp {
namespace {

using Clock = std::chrono::steady_clock;

// Idle handles kept per client: one per exchange that may run at once in practice (a call, the
// GET stream, a notification); more are created when needed and dropped when returned.
constexpr size_t kMaxIdleHandles = 4;
// Upper bound of one wait, so a stop flag set without Interrupt() is still seen.
constexpr long kMaxWaitMs = 1000;
// How long a satisfied exchange may take to end by itself (HttpHandlers::satisfied), and how
// many satisfied exchanges after one that did not are cut at once: a server that keeps its
// streams open would otherwise cost every call the whole wait.
constexpr auto kLinger = std::chrono::milliseconds(5);
constexpr int kCutsAfterFailedLinger = 16;

struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

struct Exchange {
  CURL* curl;
  const HttpHandlers* handlers;
  HttpResponseHead head;
  bool head_sent = false;
  bool aborted = false;

  bool SendHead() {
    if (head_sent) return true;
    head_sent = true;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &head.status);
    if (handlers->on_head && !handlers->on_head(head)) aborted = true;
    return !aborted;
  }
};

size_t OnHeader(char* data, size_t size, size_t n, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  std::string_view line(data, size * n);
  // A new status line (redirect, 100-continue) starts a new header set.
  if (line.starts_with("HTTP/")) ex->head.headers.clear();
  size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name(line.substr(0, colon));
    std::ranges::transform(name, name.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() &&
           (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
      value.remove_suffix(1);
    }
    ex->head.headers[name] = std::string(value);
  }
  return size * n;
}

size_t OnData(char* data, size_t size, size_t n, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  if (!ex->SendHead()) return 0;
  if (ex->handlers->on_data && !ex->handlers->on_data({data, size * n})) {
    ex->aborted = true;
    return 0;
  }
  return size * n;
}

void GlobalInit() {
  static std::once_flag init;
  std::call_once(init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

// An easy handle and the multi handle that drives it. The multi handle owns the connection
// cache, so the pair keeps its connection from one exchange to the next; the multi interface
// is what lets another thread wake a waiting exchange (curl_multi_wakeup).
struct HttpClient::Handle {
  CURLM* multi = nullptr;
  CURL* easy = nullptr;

  Handle() : multi(curl_multi_init()), easy(curl_easy_init()) {}
  ~Handle() {
    if (easy) curl_easy_cleanup(easy);
    if (multi) curl_multi_cleanup(multi);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
};

HttpClient::HttpClient() {
  GlobalInit();
}

HttpClient::~HttpClient() = default;

std::unique_ptr<HttpClient::Handle> HttpClient::Borrow() {
  std::unique_ptr<Handle> h;
  {
    std::lock_guard lock(mu_);
    if (!idle_.empty()) {
      h = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  if (!h) h = std::make_unique<Handle>();
  if (!h->multi || !h->easy) return nullptr;
  std::lock_guard lock(mu_);
  active_.push_back(h.get());
  return h;
}

void HttpClient::Return(std::unique_ptr<Handle> h) {
  std::lock_guard lock(mu_);
  std::erase(active_, h.get());
  if (idle_.size() < kMaxIdleHandles) idle_.push_back(std::move(h));
}

void HttpClient::Interrupt() {
  std::lock_guard lock(mu_);
  for (Handle* h : active_) curl_multi_wakeup(h->multi);
}

Expected<long> HttpClient::Perform(const HttpRequest& request, const HttpHandlers& handlers,
                                   const HttpCancel& cancel) {
  std::unique_ptr<Handle> handle = Borrow();
  if (!handle) return Fail(ErrorCode::kInternal, "cannot create an HTTP client");
  CURL* c = handle->easy;
  CURLM* m = handle->multi;
  // Options from the previous exchange must not leak into this one; reset keeps the
  // connection.
  curl_easy_reset(c);
  std::unique_ptr<curl_slist, SlistDeleter> headers;
  for (const auto& [k, v] : request.headers) {
    std::string h = k + ": " + v;
    headers.reset(curl_slist_append(headers.release(), h.c_str()));
  }
  // No "Expect: 100-continue" round trip before larger bodies.
  headers.reset(curl_slist_append(headers.release(), "Expect:"));
  Exchange ex{c, &handlers, {}, false, false};
  curl_easy_setopt(c, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(request.connect_timeout.count()));
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &ex);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, OnData);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &ex);
  // MCP endpoints are local services or APIs, not browsers: redirects are not followed, so
  // credentials in headers never travel to another host.
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  // No proxy from the environment for loopback servers.
  curl_easy_setopt(c, CURLOPT_NOPROXY, "localhost,127.0.0.1,::1");
  if (request.method == "POST") {
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(request.body.size()));
  } else if (request.method != "GET") {
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }

  auto stopped = [&] {
    return (cancel.stop && cancel.stop->load()) || cancel.token.stop_requested();
  };
  bool cancelled = false, timed_out = false, cut = false, lingered = false;
  Clock::time_point linger_until = Clock::time_point::max();
  CURLcode rc = CURLE_OK;
  CURLMcode mc = curl_multi_add_handle(m, c);
  {
    // Scoped: it must be gone before the handle goes back to the pool (or is freed).
    std::stop_callback wake(cancel.token, [m] { curl_multi_wakeup(m); });
    while (mc == CURLM_OK) {
      int running = 0;
      mc = curl_multi_perform(m, &running);
      if (mc != CURLM_OK || running == 0) break;
      if (stopped()) {
        cancelled = true;
        break;
      }
      auto now = Clock::now();
      if (linger_until == Clock::time_point::max() && handlers.satisfied && handlers.satisfied()) {
        lingered = skip_linger_.load() == 0;
        if (!lingered) skip_linger_.fetch_sub(1);
        linger_until = lingered ? now + kLinger : now;
      }
      if (now >= linger_until) {
        cut = true;
        break;
      }
      if (now >= cancel.deadline) {
        timed_out = true;
        break;
      }
      auto until = std::min(cancel.deadline, linger_until);
      long wait_ms = kMaxWaitMs;
      if (until != Clock::time_point::max()) {
        auto left = std::chrono::ceil<std::chrono::milliseconds>(until - now).count();
        wait_ms = std::min<long>(wait_ms, static_cast<long>(left));
      }
      mc = curl_multi_poll(m, nullptr, 0, static_cast<int>(wait_ms), nullptr);
    }
  }
  int queued = 0;
  while (CURLMsg* msg = curl_multi_info_read(m, &queued)) {
    if (msg->msg == CURLMSG_DONE && msg->easy_handle == c) rc = msg->data.result;
  }
  bool finished = mc == CURLM_OK && !cancelled && !timed_out;
  if (cut && lingered) skip_linger_ = kCutsAfterFailedLinger;
  if (finished && rc == CURLE_OK) ex.SendHead();  // an empty body: on_head has not run yet
  // An exchange removed before its end closes its connection; a finished one keeps it.
  curl_multi_remove_handle(m, c);
  Return(std::move(handle));

  std::string what = request.method + " " + request.url + ": ";
  if (cancelled) return Fail(ErrorCode::kCancelled, what + "stopped");
  if (timed_out) return Fail(ErrorCode::kDeadlineExceeded, what + "timed out");
  if (mc != CURLM_OK) return Fail(ErrorCode::kInternal, what + curl_multi_strerror(mc));
  if (rc == CURLE_OK || ex.aborted || cut) return ex.head.status;
  return Fail(ErrorCode::kUnavailable, what + curl_easy_strerror(rc));
}

Expected<long> PerformHttp(const HttpRequest& request, const HttpHandlers& handlers,
                           const HttpCancel& cancel) {
  HttpClient client;
  return client.Perform(request, handlers, cancel);
}

}  // namespace clawtools::mcp
