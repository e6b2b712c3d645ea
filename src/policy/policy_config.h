// Tool policy configuration: the lists the pipeline (policy_engine.h) evaluates.
//
// Built from the config file:
//   tools.{profile, allow, deny, alsoAllow, byProvider.<provider>.{profile, allow, deny,
//   alsoAllow}} agents.list[] = {id, tools: {same shape}} agents.defaults.subagents.maxSpawnDepth
//   (default 1)
// and, per agent, from the store's tools_config JSON (ScopePolicy::FromJson).
//
// Every list entry is a tool name or alias, "group:<name>", or a '*' glob ("mcp_github_*").
// An empty list means "no restriction" (never "deny all").
//
// Validation (FromJson, Validate) fails on what would silently produce zero or all tools:
// an unknown profile, an unknown "group:x" (the dynamic "group:mcp" and "group:mcp:<server>"
// are accepted), an empty entry, a wrong type. It warns, naming the key path, about entries
// that are legal but suspicious: a tool name that no native tool or known alias has (it may
// come from MCP or a custom tool later), and an alsoAllow entry that re-adds something a deny
// list removes (alsoAllow runs after deny, per the seed).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/json.h"

namespace clawtools {

// One scope's lists. `profile` empty = inherit.
struct PolicySpec {
  std::string profile;
  std::vector<std::string> allow;
  std::vector<std::string> deny;
  std::vector<std::string> also_allow;

  bool operator==(const PolicySpec&) const = default;
};

// The global "tools" section or one agent's "tools": base lists plus per-provider overrides.
struct ScopePolicy {
  PolicySpec base;
  std::map<std::string, PolicySpec, std::less<>> by_provider;
  // Key path prefix used in warnings, explain output and error messages: "tools",
  // "agents.list[2].tools", "store.tools_config[coder]".
  std::string origin;

  // Parses {profile, allow, deny, alsoAllow, byProvider} and validates it. Other keys of
  // the global tools section (execApproval, web_fetch, ...) are ignored; in an agent's spec
  // (strict = true) an unknown key is warned about, since nothing else validates store JSON.
  static Expected<ScopePolicy> FromJson(const Json& tools, std::string origin, bool strict,
                                        std::vector<std::string>* warnings);

  bool operator==(const ScopePolicy&) const = default;
};

inline constexpr std::string_view kProfiles[] = {"full", "coding", "messaging", "minimal"};

struct PolicyConfig {
  ScopePolicy global{.origin = "tools"};
  std::map<std::string, ScopePolicy, std::less<>> agents;  // by agent id
  int max_spawn_depth = 1;

  // Reads root["tools"] and root["agents"]; both optional. `warnings` may be null.
  static Expected<PolicyConfig> FromJson(const Json& root, std::vector<std::string>* warnings);

  // The checks FromJson runs, for configs built in code or edited at runtime.
  Status Validate(std::vector<std::string>* warnings) const;
};

// Validates one agent's scope as it would run under `global` (may be null): entry errors and
// warnings for the scope, and alsoAllow-vs-deny warnings for every pair involving the scope.
// PolicyConfig::Validate runs this for each agent; the engine runs it for runtime updates.
Status ValidateScope(const ScopePolicy& scope, const ScopePolicy* global,
                     std::vector<std::string>* warnings);

}  // namespace clawtools
