// McpBridgeTool: one MCP server tool as a clawtools Tool. Shares its server's ServerState with
// the manager, so a call always sees the current connection: while the server is down it fails
// at once with an error naming the server and the reconnect state (no waiting on a dead pipe).
// A drifted tool stays registered but refuses every call, and the model sees a neutral
// description instead of the unreviewed one (a changed description is itself the attack).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "core/tool.h"
#include "mcp/client.h"
#include "mcp/server_config.h"

namespace clawtools::mcp {

enum class ServerPhase { kConnecting, kConnected, kReconnecting, kFailed, kStopped };
const char* ServerPhaseName(ServerPhase p);

// The manager's per-server state; bridge tools read it under `mu`.
struct ServerState {
  explicit ServerState(McpServerConfig c) : config(std::move(c)) {}

  const McpServerConfig config;
  mutable std::mutex mu;
  std::shared_ptr<McpClient> client;
  ServerPhase phase = ServerPhase::kConnecting;
  uint64_t generation = 0;  // bumped per connection; stale close callbacks are ignored
  int attempts = 0;
  int max_attempts = 10;
  std::string last_error;
  std::chrono::steady_clock::time_point next_attempt, next_ping;
  bool refresh_requested = false;
  std::map<std::string, McpToolDef> tools;        // by the server's tool name
  std::map<std::string, std::string> registered;  // server tool name -> registry name
  std::set<std::string> drifted;

  // The live client, or the error a call should fail with.
  Expected<std::shared_ptr<McpClient>> Acquire() const;
};

class McpBridgeTool final : public Tool {
 public:
  McpBridgeTool(std::shared_ptr<ServerState> server, std::string registered_name,
                const McpToolDef& def, bool drifted, std::shared_ptr<CallLog> log);

  const std::string& name() const override { return name_; }
  const std::string& description() const override { return description_; }
  const Json& parameters() const override { return parameters_; }
  Result Execute(const CallContext& ctx, const Json& args) const override;
  const std::string& dynamic_group() const override { return group_; }

  const std::string& server_name() const { return server_->config.name; }
  const std::string& tool_name() const { return tool_; }

 private:
  std::shared_ptr<ServerState> server_;
  std::string name_, tool_, description_, group_;
  Json parameters_;
  bool drifted_;
  std::shared_ptr<CallLog> log_;
};

}  // namespace clawtools::mcp
