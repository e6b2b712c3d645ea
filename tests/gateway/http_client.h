// Minimal blocking HTTP client for the gateway tests (libcurl), plus raw-socket helpers for
// misbehaving clients.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/json.h"

namespace clawtools::testing {

struct HttpReply {
  long status = 0;  // 0: transport failure (see error)
  std::string body;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string error;
  long new_connections = 0;  // connections curl opened for this request (0 = reused)

  Json json() const { return Json::parse(body, nullptr, false); }
};

// One client = one curl handle, so consecutive requests reuse the keep-alive connection.
class HttpClient {
 public:
  explicit HttpClient(uint16_t port);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  HttpReply Get(const std::string& path, std::vector<std::string> headers = {});
  HttpReply Post(const std::string& path, const std::string& body,
                 std::vector<std::string> headers = {});
  HttpReply Send(const std::string& method, const std::string& path, const std::string& body,
                 std::vector<std::string> headers);

 private:
  uint16_t port_;
  void* curl_;
};

// Connects to 127.0.0.1:port; -1 on failure.
int ConnectRaw(uint16_t port);
// Reads until the peer closes or `timeout_ms` passes. Sets `closed` when the peer closed.
std::string ReadAll(int fd, int timeout_ms, bool* closed);

}  // namespace clawtools::testing
