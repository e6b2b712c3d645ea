// Agents known to the database. The agent id is what CallContext::agent_id() carries; the
// type decides how context files are routed (see ContextFileRouter).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "store/store.h"

namespace clawtools::store {

enum class AgentType { kOpen, kPredefined };

const char* AgentTypeName(AgentType type);  // "open" / "predefined"
std::optional<AgentType> ParseAgentType(std::string_view s);

struct Agent {
  std::string id;
  std::string agent_key;  // human-facing key; defaults to id when empty on Put
  AgentType type = AgentType::kOpen;
  // The agent's tool policy as JSON ({profile, allow, deny, alsoAllow, byProvider}, the shape
  // of agents.list[].tools); empty = none. Validated by the policy engine when loaded.
  std::string tools_config;
  int64_t created_at = 0;  // Unix ms, set by the store on first insert
  int64_t updated_at = 0;  // Unix ms of the last Put
};

// Thread-safe; holds a reference to `store`, which must outlive it.
class AgentStore {
 public:
  explicit AgentStore(Store& store) : store_(store) {}

  // Inserts or updates key, type and tools_config; created_at is kept from the first insert.
  Status Put(const Agent& agent) const;
  // nullopt when there is no such agent.
  Expected<std::optional<Agent>> Get(std::string_view id) const;
  Expected<std::vector<Agent>> List() const;
  // Deletes the agent with its context files and memory. kNotFound when absent.
  Status Remove(std::string_view id) const;

 private:
  Store& store_;
};

}  // namespace clawtools::store
