// The legacy HTTP+SSE transport (protocol 2024-11-05): a long-lived GET event stream whose
// first `endpoint` event names the URL to POST messages to; answers arrive as `message`
// events on the stream. Kept because many deployed servers still only speak it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/call_log.h"
#include "mcp/http_client.h"
#include "mcp/transport.h"

namespace clawtools::mcp {

struct HttpTransportOptions {
  std::string url;
  std::map<std::string, std::string> headers;  // sent with every request (auth)
  std::chrono::milliseconds connect_timeout{10000};
  std::shared_ptr<CallLog> log;
};

class SseTransport final : public Transport {
 public:
  explicit SseTransport(HttpTransportOptions options);
  ~SseTransport() override;

  // Opens the stream and waits (connect_timeout) for the endpoint event.
  Status Start(MessageHandler on_message, CloseHandler on_close) override;
  // POSTs to the endpoint; the answer comes on the stream.
  Status Send(const Json& message) override;
  void Close() override;
  std::string Describe() const override { return options_.url; }

 private:
  void Run();

  HttpTransportOptions options_;
  HttpClient http_;  // the stream and the POSTs; POSTs reuse one connection
  MessageHandler on_message_;
  CloseHandler on_close_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  std::string endpoint_;
  bool stream_done_ = false;
  std::string stream_error_;
  std::thread thread_;
};

}  // namespace clawtools::mcp
