// McpManager: connects the configured MCP servers and keeps their tools in a Registry (each
// bridge tool in the policy groups "mcp" and "mcp:<server>", see Tool::dynamic_group).
//
// Lifecycle: Start() dials every enabled server (a failure is logged and retried, never fatal)
// and returns once each has had its first attempt. A worker thread then pings each connected
// server every health_interval; a failed ping or a dead connection (process exit, stream gone)
// makes the server's tools fail fast with a clear error while the worker re-dials with
// exponential backoff (backoff_initial doubling to backoff_max, max_reconnect_attempts
// attempts). `notifications/tools/list_changed` re-lists and re-registers. Shutdown() (also the
// destructor) closes every connection (stdio servers are killed with their process group) and
// removes the tools it added. All spawning happens on the worker thread, so
// PR_SET_PDEATHSIG is tied to a thread that lives as long as the manager.
//
// Drift: each tool's DefinitionHash() is recorded the first time it is seen. A later different
// hash disables that tool (it stays registered, refusing calls with an error that says how to
// approve) until ApproveDrift(server, tool) accepts the new definition.
//
// The Registry must outlive the manager.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/call_log.h"
#include "core/registry.h"
#include "mcp/bridge_tool.h"
#include "mcp/server_config.h"
#include "mcp/tool_hashes.h"

namespace clawtools::mcp {

struct McpManagerOptions {
  ClientInfo client_info;
  std::chrono::milliseconds health_interval{30000};
  std::chrono::milliseconds ping_timeout{10000};
  std::chrono::milliseconds connect_timeout{30000};
  std::chrono::milliseconds list_timeout{30000};
  std::chrono::milliseconds backoff_initial{2000};
  std::chrono::milliseconds backoff_max{60000};
  int max_reconnect_attempts = 10;
  std::shared_ptr<CallLog> log;
  // Default: MemoryToolHashes (drift is then only detected within one process lifetime).
  std::shared_ptr<ToolHashStore> hashes;
  // Default: MakeTransport. Tests inject in-process servers here.
  std::function<Expected<std::unique_ptr<Transport>>(const McpServerConfig&)> transport_factory;
};

struct McpServerStatus {
  std::string name;
  ServerPhase phase = ServerPhase::kStopped;
  int attempts = 0;
  std::string last_error;
  std::string protocol_version;
  std::vector<std::string> tools;    // registry names
  std::vector<std::string> drifted;  // server tool names
  pid_t pid = -1;                    // stdio servers
};

class McpManager {
 public:
  explicit McpManager(Registry& registry, McpManagerOptions options = {});
  ~McpManager();
  McpManager(const McpManager&) = delete;
  McpManager& operator=(const McpManager&) = delete;

  // Once. Disabled servers are skipped.
  void Start(std::vector<McpServerConfig> servers);
  void Shutdown();

  // Accepts the pending definition of a drifted tool and enables it.
  Status ApproveDrift(const std::string& server, const std::string& tool);
  // Re-lists a server's tools on the worker thread (as list_changed does).
  void Refresh(const std::string& server);

  std::vector<McpServerStatus> Servers() const;
  std::optional<McpServerStatus> Server(const std::string& name) const;

 private:
  void Run();
  void Connect(const std::shared_ptr<ServerState>& s);
  void HealthCheck(const std::shared_ptr<ServerState>& s);
  void RefreshTools(const std::shared_ptr<ServerState>& s);
  void ScheduleRetry(const std::shared_ptr<ServerState>& s, const std::string& error);
  void Register(const std::shared_ptr<ServerState>& s, const std::vector<McpToolDef>& defs);
  void Wake();
  void Log(LogLevel level, std::string_view msg, Json fields) const;

  Registry& registry_;
  McpManagerOptions options_;

  std::map<std::string, std::shared_ptr<ServerState>> servers_;  // fixed after Start
  std::mutex reg_mu_;  // registry and group updates, drift decisions

  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool wake_ = false;
  bool started_ = false;
  std::vector<std::shared_ptr<ServerState>> initial_;  // first attempts still to run
  bool initial_pending_ = false;                       // Start() waits for them
  std::thread worker_;
};

}  // namespace clawtools::mcp
