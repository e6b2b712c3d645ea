// The assembled system: config + store + registry with its filter chain + tools + policy.
// Built once per process by the CLI and the gateway; every entry point calls through it so
// that policy, rate limiting, validation and scrubbing apply the same way everywhere.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "config/config.h"
#include "core/call_log.h"
#include "core/error.h"
#include "core/registry.h"
#include "scrub/scrubber.h"

namespace clawtools {

class PolicyEngine;
class VirtualFileRouter;
namespace store {
class Store;
class MemoryStore;
}  // namespace store
namespace mcp {
class McpManager;
class AgentMcpResolver;
}  // namespace mcp
namespace sandbox {
class Sandbox;
}  // namespace sandbox
class ApprovalManager;
class Approver;
class EventBus;
class CommandGate;
class ProcessRegistry;
namespace custom_tools {
class CustomToolStore;
class CustomToolLoader;
class EventNotifier;
}  // namespace custom_tools

struct RuntimeOptions {
  std::string config_path;  // empty: defaults only
  std::string workspace;    // overrides config `workspace`
  std::string db_url;       // overrides config `db`; SQLite path or postgres:// URL
  LogLevel log_level = LogLevel::kInfo;
  // Asked when a shell command needs a human decision, before the store-backed workflow
  // (the CLI passes a terminal prompt when it runs on a terminal). May be null.
  std::shared_ptr<Approver> approver;
};

enum class DefinitionFormat { kOpenAI, kAnthropic };

// Which tools a model would be offered (policy inputs).
struct ToolQuery {
  std::string agent_id;
  std::string user_id;  // selects the user's MCP grants
  std::string provider;
  int subagent_depth = 0;
  std::vector<std::string> group_allow;
};

class Runtime {
 public:
  static Expected<std::unique_ptr<Runtime>> Create(const RuntimeOptions& options);
  ~Runtime();

  // Runs one call through the full pipeline (policy, rate limit, validation, scrubbing, log).
  CallOutcome Call(const CallRequest& request) const;

  // The tool definitions the model would get for `query`, in the provider's format.
  Json ToolDefinitions(const ToolQuery& query, DefinitionFormat format) const;
  // For every registered tool: survives or not, and the policy step and list entry that decided.
  Json ExplainTools(const ToolQuery& query) const;

  // The registry a call or tool listing for (agent, user) runs against: the global one, or a
  // clone with the agent's own custom tools and the MCP servers the store grants the pair.
  std::shared_ptr<const Registry> RegistryFor(std::string_view agent_id,
                                              std::string_view user_id = {}) const;

  // Custom tools: store, loader (global set + per-agent resolutions) and the change notifier.
  custom_tools::CustomToolStore& custom_tool_store() const { return *custom_store_; }
  custom_tools::CustomToolLoader& custom_tools() const { return *custom_loader_; }
  custom_tools::EventNotifier& custom_tool_events() const { return *notifier_; }
  // Long-running processes (the gateway) listen for custom-tool changes made by other
  // processes: LISTEN/NOTIFY on PostgreSQL, polling on SQLite. One-shot commands don't.
  void ListenForCustomToolChanges();

  // Re-reads per-agent tool policies from the store (agents.tools_config) and applies the
  // changed ones to the policy engine; store entries override the config file's. Returns the
  // warnings found. Cheap when nothing changed; the gateway calls it periodically so that
  // changes made by another process (CLI, another gateway) apply without a restart.
  std::vector<std::string> ReloadAgentPolicies();

  const Config& config() const { return *config_; }
  const Registry& registry() const { return *registry_; }
  Registry& registry() { return *registry_; }
  const Scrubber& scrubber() const { return *scrubber_; }
  CallLog& log() const { return *log_; }
  PolicyEngine& policy() const { return *policy_; }
  store::Store& store() const { return *store_; }
  mcp::McpManager& mcp() const { return *mcp_; }
  // Per-(agent, user) MCP servers granted in the store (managed mode).
  mcp::AgentMcpResolver* mcp_agents() const { return mcp_agents_.get(); }
  ApprovalManager& approvals() const { return *approvals_; }
  // Events for UIs and chat channels (approval.requested, approval.decided, ...).
  const std::shared_ptr<EventBus>& events() const { return events_; }
  // The isolation really available (measured by the sandbox self-test); null JSON when no
  // agent uses a sandbox and none was probed.
  Json SandboxCapabilities() const;
  const std::string& workspace() const { return workspace_; }

 private:
  Runtime() = default;

  std::shared_ptr<const Config> config_;
  std::shared_ptr<CallLog> log_;
  std::shared_ptr<Scrubber> scrubber_;
  std::shared_ptr<PolicyEngine> policy_;
  std::shared_ptr<EventBus> events_;
  std::shared_ptr<const sandbox::Sandbox> sandbox_;
  // Declared before the registry: tools hold routers that hold the store.
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<store::MemoryStore> memory_;
  std::shared_ptr<ApprovalManager> approvals_;
  std::unique_ptr<Registry> registry_;
  // Destroyed before the registry: kills every background process.
  std::shared_ptr<ProcessRegistry> processes_;
  std::shared_ptr<custom_tools::CustomToolStore> custom_store_;
  std::unique_ptr<custom_tools::CustomToolLoader> custom_loader_;
  std::unique_ptr<custom_tools::EventNotifier> notifier_;  // destroyed first: stops its thread
  // Declared after the registry, engine and store it registers into: destroyed first.
  std::unique_ptr<mcp::McpManager> mcp_;
  std::unique_ptr<mcp::AgentMcpResolver> mcp_agents_;
  std::string workspace_;
  std::mutex reload_mu_;
  std::map<std::string, std::string> loaded_agent_policies_;  // id -> tools_config applied
};

}  // namespace clawtools
