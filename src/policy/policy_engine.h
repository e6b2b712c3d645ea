// The tool policy engine: which tools the model may see and call, for one request.
//
// Pipeline (the seed's order; steps with an empty list are skipped, "empty = no restriction"):
//   1. profile: the last one set of tools.profile, tools.byProvider.<p>.profile, the agent's
//      profile, the agent's byProvider.<p>.profile; it replaces, never intersects
//      ("full" = everything). GoClaw ignores the agent's profile; we honour it.
//   2. intersect with allow lists: global, global provider, agent, agent+provider, then the
//      request's group allow list (chat group / forum topic)
//   3. subtract deny lists: global, global provider, agent, agent+provider
//   4. add alsoAllow lists (same order): may re-add what a deny list removed (config load warns)
//   5. subagents (depth > 0) lose the subagent deny list; at depth >= maxSpawnDepth also the
//      leaf list; both matched case-insensitively
// An allow list none of whose entries matches a registered tool removes every tool (fail
// closed); Explain says so. Aliases follow their canonical tool: an entry naming an alias means
// the canonical tool, and the aliases of an allowed tool are allowed.
//
// Thread-safe. The configuration is an immutable snapshot swapped on SetConfig; each snapshot
// owns a result cache keyed by (agent, provider, depth class, group allow, tool set), so a
// reload or a change of tools can never serve stale results. The dynamic groups (group:mcp,
// group:mcp:<server>) come from the evaluated registry's tools (Tool::dynamic_group), so each
// registry, also an agent's clone with MCP servers of its own, resolves its own.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "core/registry.h"
#include "policy/policy_config.h"
#include "policy/tool_groups.h"

namespace clawtools {

struct PolicyQuery {
  std::string agent_id;                  // empty or unconfigured: global lists only
  std::string provider;                  // selects byProvider entries
  int subagent_depth = 0;                // 0 = main agent
  std::vector<std::string> group_allow;  // per-request allow list; empty = no restriction
};

enum class PolicyStep : uint8_t {
  kNone,  // the tool was never removed
  kProfile,
  kGlobalAllow,
  kProviderAllow,
  kAgentAllow,
  kAgentProviderAllow,
  kGroupAllow,
  kGlobalDeny,
  kProviderDeny,
  kAgentDeny,
  kAgentProviderDeny,
  kGlobalAlsoAllow,
  kProviderAlsoAllow,
  kAgentAlsoAllow,
  kAgentProviderAlsoAllow,
  kSubagentDeny,
  kLeafDeny,
};

// "global_deny", "agent_provider_allow", ...; "" for kNone.
const char* PolicyStepName(PolicyStep step);

// Why a step changed a tool's fate.
struct PolicyCause {
  PolicyStep step = PolicyStep::kNone;
  // The list entry that matched; empty when an allow list or profile removed the tool for not
  // matching it. For kProfile, the profile's name.
  std::string entry;
  // Key path of the list ("tools.deny", "agents.list[0].tools.byProvider.openai.allow",
  // "request.group_allow", "subagent deny list").
  std::string source;
  // An allow list none of whose entries matched any registered tool (all unknown).
  bool no_entry_matched = false;

  // 'removed by tools.deny entry "group:runtime"', 'not matched by tools.allow', ...
  std::string Describe() const;
  bool operator==(const PolicyCause&) const = default;
};

struct ToolDecision {
  std::string tool;                  // canonical name
  std::vector<std::string> aliases;  // share the decision
  bool allowed = true;
  PolicyCause cause;  // the last step that changed the tool; kNone when untouched
  // For a tool re-added by alsoAllow: the removal it undid.
  std::optional<PolicyCause> overrode;

  // {"tool","allowed","step","entry","source"[,"note"][,"overrode":{...}]}
  Json ToJson() const;
};

class PolicyFilter;

class PolicyEngine {
 public:
  // `cfg` is used as given: validate it first (PolicyConfig::FromJson does). Entries an
  // unvalidated config gets wrong fail closed: an unknown group or profile matches nothing.
  explicit PolicyEngine(PolicyConfig cfg = {});
  ~PolicyEngine();
  PolicyEngine(const PolicyEngine&) = delete;
  PolicyEngine& operator=(const PolicyEngine&) = delete;

  // Replaces the whole configuration (reload); later evaluations see it, running ones finish
  // with the old one.
  void SetConfig(PolicyConfig cfg);
  // Sets or replaces one agent's lists (e.g. the store's tools_config), validated against the
  // current global lists. An empty scope.origin becomes "agents[<id>].tools".
  Status SetAgentPolicy(std::string agent_id, ScopePolicy scope,
                        std::vector<std::string>* warnings);
  bool RemoveAgentPolicy(std::string_view agent_id);
  PolicyConfig config() const;

  // Canonical names allowed for the query among reg's tools, sorted.
  std::shared_ptr<const std::vector<std::string>> Allowed(const Registry& reg,
                                                          const PolicyQuery& q) const;
  // Allowed() plus the aliases of allowed tools, sorted: the names to send to the model.
  std::shared_ptr<const std::vector<std::string>> AllowedWithAliases(const Registry& reg,
                                                                     const PolicyQuery& q) const;
  // `name` may be an alias. False for unknown names.
  bool IsAllowed(const Registry& reg, const PolicyQuery& q, std::string_view name) const;
  // One tool's decision; nullopt when reg has no such tool or alias.
  std::optional<ToolDecision> Decide(const Registry& reg, const PolicyQuery& q,
                                     std::string_view name) const;
  // Every registered tool's decision, in reg.List() order.
  std::vector<ToolDecision> Explain(const Registry& reg, const PolicyQuery& q) const;

  // Implementation types, public only so the .cc's helpers can name them.
  struct Snapshot;
  struct Evaluation;

 private:
  friend class PolicyFilter;

  struct QueryView {
    std::string_view agent_id;
    std::string_view provider;
    int subagent_depth;
    std::span<const std::string> group_allow;
  };
  static QueryView View(const PolicyQuery& q) {
    return {q.agent_id, q.provider, q.subagent_depth, q.group_allow};
  }

  std::shared_ptr<const Snapshot> snapshot() const;
  // The cached or freshly computed evaluation. The snapshot is returned too: the evaluation's
  // causes point into it.
  std::shared_ptr<const Evaluation> Evaluate(const Registry& reg, const QueryView& q,
                                             std::shared_ptr<const Snapshot>* snap) const;
  // nullopt when `name` is allowed; else why not (PolicyCause::Describe), the filter's hot path.
  std::optional<std::string> Refusal(const Registry& reg, const QueryView& q,
                                     std::string_view name) const;
  void Install(PolicyConfig cfg);  // requires write_mu_

  std::mutex write_mu_;  // serializes writers so read-modify-write updates don't lose changes
  mutable std::shared_mutex mu_;  // guards snapshot_ (the pointer, not the pointee)
  std::shared_ptr<const Snapshot> snapshot_;
};

}  // namespace clawtools
