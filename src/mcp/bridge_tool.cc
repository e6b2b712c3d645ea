#include "mcp/bridge_tool.h"

#include "mcp/content.h"

namespace clawtools::mcp {

const char* ServerPhaseName(ServerPhase p) {
  switch (p) {
    case ServerPhase::kConnecting:
      return "connecting";
    case ServerPhase::kConnected:
      return "connected";
    case ServerPhase::kReconnecting:
      return "reconnecting";
    case ServerPhase::kFailed:
      return "failed";
    case ServerPhase::kStopped:
      return "stopped";
  }
  return "stopped";
}

Expected<std::shared_ptr<McpClient>> ServerState::Acquire() const {
  std::lock_guard lock(mu);
  if (phase == ServerPhase::kConnected && client && client->alive()) return client;
  std::string why =
      last_error.empty() ? (client ? client->close_reason() : "not connected") : last_error;
  if (client && !client->alive() && phase == ServerPhase::kConnected) why = client->close_reason();
  std::string state;
  switch (phase) {
    case ServerPhase::kFailed:
      state = "gave up after " + std::to_string(max_attempts) + " reconnect attempts";
      break;
    case ServerPhase::kStopped:
      state = "the MCP manager has shut down";
      break;
    case ServerPhase::kReconnecting:
      state = "reconnecting (attempt " + std::to_string(attempts + 1) + " of " +
              std::to_string(max_attempts) + ")";
      break;
    default:
      state = "reconnecting";
  }
  return Fail(ErrorCode::kUnavailable,
              "MCP server \"" + config.name + "\" is unavailable (" + why + "); " + state);
}

McpBridgeTool::McpBridgeTool(std::shared_ptr<ServerState> server, std::string registered_name,
                             const McpToolDef& def, bool drifted, std::shared_ptr<CallLog> log)
    : server_(std::move(server)),
      name_(std::move(registered_name)),
      tool_(def.name),
      description_(drifted
                       ? "[disabled: the definition of MCP tool \"" + def.name + "\" on server \"" +
                             server_->config.name + "\" changed and awaits review]"
                       : def.description),
      group_("mcp:" + server_->config.name),
      parameters_(drifted ? Json{{"type", "object"}, {"properties", Json::object()}}
                          : def.input_schema),
      drifted_(drifted),
      log_(std::move(log)) {}

Result McpBridgeTool::Execute(const CallContext& ctx, const Json& args) const {
  const std::string& server = server_->config.name;
  if (drifted_) {
    return Result::Fail(
        "MCP tool \"" + tool_ + "\" on server \"" + server +
            "\" is disabled: its definition (description or schema) changed since it "
            "was approved. An operator must review the change and approve it "
            "(McpManager::ApproveDrift(\"" +
            server + "\", \"" + tool_ + "\")).",
        ErrorCode::kPermissionDenied);
  }
  auto client = server_->Acquire();
  if (!client) return Result::FromError(client.error());
  CallOptions co;
  auto now = std::chrono::steady_clock::now();
  co.deadline = std::min(ctx.deadline(), now + server_->config.timeout);
  co.stop = ctx.stop_token();
  long budget_s =
      static_cast<long>(std::chrono::ceil<std::chrono::seconds>(co.deadline - now).count());
  if (log_ && log_->enabled(LogLevel::kDebug)) {
    co.on_progress = [this, &server](const Progress& p) {
      log_->Event(
          LogLevel::kDebug, "mcp progress",
          {{"server", server}, {"tool", tool_}, {"progress", p.progress}, {"message", p.message}});
    };
  }
  auto r = (*client)->CallTool(tool_, args, co);
  if (!r) {
    const Error& e = r.error();
    if (e.code == ErrorCode::kDeadlineExceeded) {
      return Result::Fail("MCP tool \"" + tool_ + "\" on server \"" + server +
                              "\" timed out after " + std::to_string(budget_s) +
                              "s; the request was cancelled",
                          ErrorCode::kDeadlineExceeded);
    }
    return Result::Fail(
        "MCP tool \"" + tool_ + "\" on server \"" + server + "\" failed: " + e.for_model, e.code);
  }
  return MapCallResult(*r, server, tool_);
}

}  // namespace clawtools::mcp
