// AgentMcpResolver: the tool registry one (agent, user) pair calls through when store grants
// give it MCP servers (managed mode), so that one agent's MCP servers never reach another's
// tool list or calls.
//
// For a pair with accessible servers (McpAccessStore::LoadForAgent) it builds, once, a clone of
// the pair's base registry (the runtime's, or the agent's with its custom tools: same tools,
// same filter chain: policy, rate limit, scrubbing) plus an
// McpManager of its own that connects only those servers, with the agent's config_overrides,
// through a FilteredTransport applying both grants' tool filters. A pair with no accessible
// server gets the base registry itself (no clone, no cost). Entries are rebuilt when the
// pair's grants or its base registry change (grants checked at most every `recheck` per pair;
// servers connect outside the resolver's lock, so one slow server does not stall other pairs) and
// dropped after `idle` without use or when more than `max_entries` are cached (least recently used
// first), which stops their servers.
//
// The base registry must not hold store servers itself (the runtime loads only config-file
// servers globally in managed mode), or every agent would see them. Policy lists naming
// group:mcp or group:mcp:<server> resolve against the pair's own registry, so they cover the
// pair's granted servers and no other pair's.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/registry.h"
#include "mcp/access_store.h"
#include "mcp/manager.h"
#include "store/store.h"

namespace clawtools::mcp {

struct AgentResolverOptions {
  std::chrono::milliseconds idle{std::chrono::minutes(10)};
  std::chrono::milliseconds recheck{std::chrono::seconds(5)};
  size_t max_entries = 256;
  McpManagerOptions manager;  // its transport_factory (default MakeTransport) is wrapped
};

class AgentMcpResolver {
 public:
  // `store` must outlive the resolver.
  explicit AgentMcpResolver(store::Store& store, AgentResolverOptions options = {});
  ~AgentMcpResolver();

  // The registry for the pair on top of `base` (what the pair would use without MCP grants);
  // `base` itself when no server is granted, and on a store error (logged), so a store outage
  // degrades to "no managed MCP servers" rather than failing every call.
  std::shared_ptr<const Registry> RegistryFor(const std::string& agent, const std::string& user,
                                              std::shared_ptr<const Registry> base);
  // Drops every entry (after grant or server changes made in this process).
  void Invalidate();

 private:
  struct Entry;
  std::shared_ptr<Entry> Build(const std::string& agent, const std::string& user,
                               std::string signature, std::vector<AccessibleServer> servers,
                               const std::shared_ptr<const Registry>& base);

  store::Store& store_;
  AgentResolverOptions options_;
  std::mutex mu_;
  std::map<std::pair<std::string, std::string>, std::shared_ptr<Entry>> entries_;
};

}  // namespace clawtools::mcp
