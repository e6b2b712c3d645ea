#include "mcp/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>

namespace clawtools::mcp {
namespace {

struct CurlDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

struct Exchange {
  CURL* curl;
  const HttpHandlers* handlers;
  const std::atomic<bool>* stop;
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

int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* ex = static_cast<Exchange*>(user);
  return ex->stop && ex->stop->load() ? 1 : 0;
}

}  // namespace

Expected<long> PerformHttp(const HttpRequest& request, const HttpHandlers& handlers,
                           const std::atomic<bool>* stop) {
  static std::once_flag init;
  std::call_once(init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
  if (!curl) return Fail(ErrorCode::kInternal, "cannot create an HTTP client");
  std::unique_ptr<curl_slist, SlistDeleter> headers;
  for (const auto& [k, v] : request.headers) {
    std::string h = k + ": " + v;
    headers.reset(curl_slist_append(headers.release(), h.c_str()));
  }
  Exchange ex{curl.get(), &handlers, stop, {}, false, false};
  CURL* c = curl.get();
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
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, OnProgress);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, &ex);
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
  CURLcode rc = curl_easy_perform(c);
  if (rc == CURLE_OK) {
    ex.SendHead();
    return ex.head.status;
  }
  if (ex.aborted || rc == CURLE_ABORTED_BY_CALLBACK) return ex.head.status;
  return Fail(ErrorCode::kUnavailable,
              request.method + " " + request.url + ": " + curl_easy_strerror(rc));
}

}  // namespace clawtools::mcp
