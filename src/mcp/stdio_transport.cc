#include "mcp/stdio_transport.h"

#include <thread>

namespace clawtools::mcp {

StdioTransport::StdioTransport(SpawnSpec spec, std::shared_ptr<CallLog> log)
    : spec_(std::move(spec)), log_(std::move(log)) {}

StdioTransport::~StdioTransport() {
  Close();
}

pid_t StdioTransport::pid() const {
  std::lock_guard lock(child_mu_);
  return child_ ? child_->pid() : -1;
}

Status StdioTransport::Start(MessageHandler on_message, CloseHandler on_close) {
  auto child = ChildProcess::Spawn(spec_);
  if (!child) return std::unexpected(child.error());
  LineTransportOptions opts;
  opts.describe = Describe();
  opts.log = log_;
  // Stdout closed: give the process a moment to exit so the error can carry its status.
  opts.exit_detail = [this]() -> std::string {
    for (int i = 0; i < 50; ++i) {
      {
        std::lock_guard lock(child_mu_);
        if (!child_) return "";
        if (auto st = child_->TryWait()) return *st;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return "stdout closed";
  };
  UniqueFd in = std::move(child->stdin_fd());
  UniqueFd out = std::move(child->stdout_fd());
  UniqueFd err = std::move(child->stderr_fd());
  {
    std::lock_guard lock(child_mu_);
    child_.emplace(std::move(*child));
  }
  line_ = std::make_unique<LineTransport>(std::move(out), std::move(in), std::move(err),
                                          std::move(opts));
  return line_->Start(std::move(on_message), std::move(on_close));
}

Status StdioTransport::Send(const Json& message) {
  if (!line_) return Fail(ErrorCode::kUnavailable, "MCP server not started");
  return line_->Send(message);
}

Status StdioTransport::SendRequest(const Json& request, const AnswerWait& wait) {
  if (!line_) return Fail(ErrorCode::kUnavailable, "MCP server not started");
  return line_->SendRequest(request, wait);
}

void StdioTransport::Close() {
  if (line_) {
    line_->MarkClosing();
    line_->CloseInput();
  }
  {
    std::lock_guard lock(child_mu_);
    if (child_) {
      child_->Terminate();
      child_.reset();
    }
  }
  if (line_) line_->Close();
}

}  // namespace clawtools::mcp
