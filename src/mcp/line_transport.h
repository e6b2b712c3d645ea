// Newline-delimited JSON-RPC over a pair of descriptors (MCP's stdio framing), plus an
// optional stderr descriptor whose lines go to the log. The building block of StdioTransport;
// tests run it over a socketpair against an in-process fake server.
//
// Tolerant by design: lines that are not JSON (banners, console.log debris) and blank lines
// are logged and skipped; a JSON array is split into its messages.
//
// One reader at a time polls stdout, stderr and the wake-ups: either the transport's I/O thread
// or a caller inside SendRequest(), which reads until its own answer arrives. The answer to a
// sequential call thus costs one thread wake-up instead of two (I/O thread, then caller); the
// I/O thread stays parked while callers read and for a moment after the last one left, and
// only it reports the end of the stream (on_close runs on it, never on a caller). A caller
// polls for 50 us before it sleeps, as long as that keeps paying off.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/call_log.h"
#include "core/unique_fd.h"
#include "mcp/transport.h"

namespace clawtools::mcp {

struct LineTransportOptions {
  std::string describe = "fd";
  std::shared_ptr<CallLog> log;
  // Stderr bytes logged per transport; past it one line says the rest was dropped.
  size_t stderr_log_cap = 256 * 1024;
  // A single message larger than this closes the transport (a runaway peer).
  size_t max_line_bytes = 64 * 1024 * 1024;
  // Called on end-of-stream to explain it ("exit status 1"); may return "".
  std::function<std::string()> exit_detail;
};

class LineTransport final : public Transport {
 public:
  // `read_fd` carries the peer's messages, `write_fd` ours (may be the same socket, dup'ed).
  LineTransport(UniqueFd read_fd, UniqueFd write_fd, UniqueFd stderr_fd,
                LineTransportOptions options);
  ~LineTransport() override;

  Status Start(MessageHandler on_message, CloseHandler on_close) override;
  Status Send(const Json& message) override;
  Status SendRequest(const Json& request, const AnswerWait& wait) override;
  void Close() override;
  std::string Describe() const override { return options_.describe; }

  // Closes our writing end (the peer sees EOF) without stopping the reader.
  void CloseInput();
  // Marks the end as ours: a later end-of-stream is not reported through on_close.
  void MarkClosing() { closing_ = true; }
  // The last few KiB of stderr, for error messages.
  std::string StderrTail() const;

 private:
  // After one wait for input: look again (data handled, timeout, interrupt), Close() was
  // called, or the stream ended (end_reason_ says why when it was not a plain EOF).
  enum class Step { kAgain, kClosing, kEnd };

  void Run();
  // One wait for input and handling what it brought, by the holder of the reader role.
  Step PollOnce(int timeout_ms);
  // PollOnce for a caller: until `wait`'s answer, input, or its deadline; spins first.
  Step ReadFor(const AnswerWait& wait);
  // The peer went away on its own: drain stderr, then on_close. I/O thread only.
  void ReportEnd();
  // Makes the current reader return from its poll.
  void Interrupt();
  void HandleLine(std::string_view line);
  void HandleStderr(std::string_view chunk, bool flush);

  UniqueFd read_fd_, write_fd_, stderr_fd_;
  UniqueFd wake_read_, wake_write_;  // Close(): readable for good
  UniqueFd interrupt_;               // eventfd: "give up the reader role / look again"
  LineTransportOptions options_;
  MessageHandler on_message_;
  CloseHandler on_close_;
  std::mutex write_mu_;
  mutable std::mutex stderr_mu_;
  std::string stderr_partial_;
  std::string stderr_tail_;
  size_t stderr_logged_ = 0;
  std::atomic<bool> closing_{false};
  bool started_ = false;  // set by Start(), before any caller

  // The reader role. Its holder alone touches the reader state below.
  std::mutex read_mu_;
  std::condition_variable read_cv_;  // callers: the role is free, or an answer may be in
  std::condition_variable io_cv_;    // the parked I/O thread
  bool reading_ = false;             // someone holds the role
  bool io_reading_ = false;          // ... and it is the I/O thread
  int callers_ = 0;                  // callers inside SendRequest
  std::chrono::steady_clock::time_point callers_left_;
  bool ended_ = false;  // a reader met the end of the stream; the I/O thread reports it
  // Reader state.
  std::string buf_;
  bool err_open_ = false;
  std::string end_reason_;
  int spin_skip_ = 0;  // caller waits left that sleep without spinning first

  std::thread thread_;
};

}  // namespace clawtools::mcp
