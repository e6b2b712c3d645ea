// A bidirectional channel of JSON-RPC messages to one MCP peer (stdio pipes, HTTP+SSE,
// streamable HTTP, or a test socket).
//
// Contract: Start() is called once. After it succeeds, `on_message` is called with every JSON
// value the peer sends (batches already split), from a transport-owned thread or from a thread
// inside SendRequest(), one at a time per stream; `on_close` is called at most once when the
// channel dies on its own (process exit, stream gone for good) but never because of Close().
// Malformed input (non-JSON lines, empty SSE events) is logged and skipped by the transport, not
// delivered. Send() and SendRequest() are thread-safe and may be called from inside
// `on_message`. Close() is idempotent, blocks until no transport thread runs a callback, wakes
// callers inside SendRequest(), and releases every OS resource (processes, fds, connections);
// the destructor calls it.
#pragma once

#include <chrono>
#include <functional>
#include <stop_token>
#include <string>

#include "core/error.h"
#include "core/json.h"

namespace clawtools::mcp {

// What a caller of SendRequest() waits for.
struct AnswerWait {
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  std::stop_token stop;
  // True once on_message has delivered the answer.
  std::function<bool()> answered;
};

class Transport {
 public:
  using MessageHandler = std::function<void(Json)>;
  using CloseHandler = std::function<void(const Error&)>;

  virtual ~Transport() = default;

  virtual Status Start(MessageHandler on_message, CloseHandler on_close) = 0;
  virtual Status Send(const Json& message) = 0;
  // Sends a request whose answer the calling thread is about to wait for. A transport that can
  // receive on the calling thread does so until `wait.answered()`, the deadline or the stop:
  // the answer then needs no hand-off from a transport thread to the waiting one, which is most
  // of the cost of a call to a local server. It may return before the answer (the default does
  // at once); the caller then waits for on_message as after Send().
  virtual Status SendRequest(const Json& request, const AnswerWait& /*wait*/) {
    return Send(request);
  }
  virtual void Close() = 0;

  // Told the negotiated protocol version after initialize; HTTP transports send it as the
  // MCP-Protocol-Version header on every later request.
  virtual void SetProtocolVersion(const std::string& /*version*/) {}
  // For errors and logs: "stdio:npx", "http://127.0.0.1:3001/mcp".
  virtual std::string Describe() const = 0;
};

}  // namespace clawtools::mcp
