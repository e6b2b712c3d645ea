// Newline-delimited JSON-RPC over a pair of descriptors (MCP's stdio framing), plus an
// optional stderr descriptor whose lines go to the log. The building block of StdioTransport;
// tests run it over a socketpair against an in-process fake server.
//
// Tolerant by design: lines that are not JSON (banners, console.log debris) and blank lines
// are logged and skipped; a JSON array is split into its messages. One I/O thread per
// transport polls stdout, stderr and a wake-up pipe.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/call_log.h"
#include "mcp/transport.h"
#include "core/unique_fd.h"

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
  void Close() override;
  std::string Describe() const override { return options_.describe; }

  // Closes our writing end (the peer sees EOF) without stopping the reader.
  void CloseInput();
  // Marks the end as ours: a later end-of-stream is not reported through on_close.
  void MarkClosing() { closing_ = true; }
  // The last few KiB of stderr, for error messages.
  std::string StderrTail() const;

 private:
  void Run();
  void HandleLine(std::string_view line);
  void HandleStderr(std::string_view chunk, bool flush);

  UniqueFd read_fd_, write_fd_, stderr_fd_;
  UniqueFd wake_read_, wake_write_;
  LineTransportOptions options_;
  MessageHandler on_message_;
  CloseHandler on_close_;
  std::mutex write_mu_;
  mutable std::mutex stderr_mu_;
  std::string stderr_partial_;
  std::string stderr_tail_;
  size_t stderr_logged_ = 0;
  std::atomic<bool> closing_{false};
  std::thread thread_;
};

}  // namespace clawtools::mcp
