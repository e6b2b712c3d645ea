// JsonRpcSession: request/response matching, notifications and server->client requests over
// one Transport. Used by McpClient; written so the MCP server side can reuse it unchanged.
//
// Thread-safe. Call() blocks the calling thread until the answer, the deadline, the stop token
// or the death of the transport, whichever comes first. On deadline or stop it sends
// `notifications/cancelled` for the request (MCP cancellation) and fails with
// kDeadlineExceeded / kCancelled. When the transport dies, every pending and later call fails
// with kUnavailable naming the cause. Requests go out through Transport::SendRequest, so a
// transport that can receive on the calling thread hands the answer over without a thread
// switch.
//
// Progress: a call with a progress callback carries `_meta.progressToken`; matching
// `notifications/progress` go to that callback (on the receiving thread: keep it short).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>

#include "core/call_log.h"
#include "core/error.h"
#include "core/json.h"
#include "mcp/jsonrpc.h"
#include "mcp/transport.h"

namespace clawtools::mcp {

struct Progress {
  double progress = 0;
  std::optional<double> total;
  std::string message;
};

struct CallOptions {
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  std::stop_token stop;
  std::function<void(const Progress&)> on_progress;
};

class JsonRpcSession {
 public:
  // Answers a request from the peer: a result, or an Error sent back as a JSON-RPC error.
  using RequestHandler =
      std::function<Expected<Json>(const std::string& method, const Json& params)>;
  using NotificationHandler = std::function<void(const std::string& method, const Json& params)>;
  using CloseHandler = std::function<void(const Error&)>;

  struct Handlers {
    // Unset: ping answers {}, everything else "method not found".
    RequestHandler on_request;
    NotificationHandler on_notification;
    CloseHandler on_close;
  };

  JsonRpcSession(std::unique_ptr<Transport> transport, Handlers handlers,
                 std::shared_ptr<CallLog> log = nullptr);
  ~JsonRpcSession();
  JsonRpcSession(const JsonRpcSession&) = delete;
  JsonRpcSession& operator=(const JsonRpcSession&) = delete;

  Status Start();
  Expected<Json> Call(const std::string& method, Json params, const CallOptions& options = {});
  Status Notify(const std::string& method, Json params = nullptr);
  // Closes the transport; pending calls fail with kUnavailable. Idempotent.
  void Close();

  // False once the transport died or Close() ran.
  bool alive() const;
  // Why the session died; empty while alive.
  std::string close_reason() const;
  Transport& transport() { return *transport_; }

 private:
  struct Pending {
    std::optional<Message> answer;
    std::function<void(const Progress&)> on_progress;
  };

  void OnMessage(Json value);
  void OnTransportClosed(const Error& error);
  void HandleRequest(const Message& m);
  void FailAll(const std::string& reason);
  void Log(LogLevel level, std::string_view msg, Json fields = Json::object()) const;

  std::unique_ptr<Transport> transport_;
  Handlers handlers_;
  std::shared_ptr<CallLog> log_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  int64_t next_id_ = 1;
  std::map<int64_t, std::shared_ptr<Pending>> pending_;
  bool closed_ = false;
  std::string close_reason_;
};

}  // namespace clawtools::mcp
