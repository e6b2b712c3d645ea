// MCP stdio transport: spawns the server (ChildProcess: own process group, reaped, no orphans)
// and speaks newline-delimited JSON over its stdin/stdout; stderr lines go to the log.
#pragma once

#include <memory>
#include <mutex>
#include <optional>

#include "core/call_log.h"
#include "mcp/child_process.h"
#include "mcp/line_transport.h"
#include "mcp/transport.h"

namespace clawtools::mcp {

class StdioTransport final : public Transport {
 public:
  StdioTransport(SpawnSpec spec, std::shared_ptr<CallLog> log);
  ~StdioTransport() override;

  // Spawns the process; fails when the command cannot be executed.
  Status Start(MessageHandler on_message, CloseHandler on_close) override;
  Status Send(const Json& message) override;
  Status SendRequest(const Json& request, const AnswerWait& wait) override;
  // EOF on stdin, then SIGTERM and SIGKILL to the group after a grace period each.
  void Close() override;
  std::string Describe() const override { return "stdio:" + spec_.command; }

  // The server's pid (also its process group id) while running; -1 otherwise.
  pid_t pid() const;

 private:
  SpawnSpec spec_;
  std::shared_ptr<CallLog> log_;
  mutable std::mutex child_mu_;
  std::optional<ChildProcess> child_;
  std::unique_ptr<LineTransport> line_;
};

}  // namespace clawtools::mcp
