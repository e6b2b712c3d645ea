#include "store/agent_store.h"

#include <algorithm>

#include "store/clock.h"

namespace clawtools::store {
namespace {

Agent FromRow(const Row& r) {
  return Agent{r.Text(0), r.Text(1), ParseAgentType(r.Text(2)).value_or(AgentType::kOpen),
               r.Text(3), r.Int(4), r.Int(5)};
}

}  // namespace

const char* AgentTypeName(AgentType type) {
  return type == AgentType::kPredefined ? "predefined" : "open";
}

std::optional<AgentType> ParseAgentType(std::string_view s) {
  if (s == "open") return AgentType::kOpen;
  if (s == "predefined") return AgentType::kPredefined;
  return std::nullopt;
}

Status AgentStore::Put(const Agent& agent) const {
  if (agent.id.empty()) return Fail(ErrorCode::kInvalidArgument, "agent id must not be empty");
  auto r = store_.Exec(
      "INSERT INTO agents (id, agent_key, type, tools_config, created_at, updated_at) "
      "VALUES ($1, $2, $3, $4, $5, $5) "
      "ON CONFLICT (id) DO UPDATE SET agent_key = excluded.agent_key, type = excluded.type, "
      "tools_config = excluded.tools_config, updated_at = excluded.updated_at",
      {agent.id, agent.agent_key.empty() ? agent.id : agent.agent_key,
       std::string(AgentTypeName(agent.type)), agent.tools_config, UnixMillisNow()});
  if (!r) return std::unexpected(r.error());
  return {};
}

Expected<std::optional<Agent>> AgentStore::Get(std::string_view id) const {
  auto rows = store_.Query("SELECT id, agent_key, type, tools_config, created_at, updated_at FROM agents WHERE id = $1",
                           {std::string(id)});
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::nullopt;
  return FromRow(rows->front());
}

Expected<std::vector<Agent>> AgentStore::List() const {
  auto rows = store_.Query("SELECT id, agent_key, type, tools_config, created_at, updated_at FROM agents");
  if (!rows) return std::unexpected(rows.error());
  std::vector<Agent> out;
  for (const Row& r : *rows) out.push_back(FromRow(r));
  // Bytewise order on both backends (ORDER BY would follow the server's collation).
  std::ranges::sort(out, {}, &Agent::id);
  return out;
}

Status AgentStore::Remove(std::string_view id) const {
  Params p{std::string(id)};
  return store_.InTransaction([&](Transaction& tx) -> Status {
    // Context files and memory carry no foreign key to agents (an agent may exist only in
    // config), so they are removed explicitly; chunks follow their documents by cascade.
    for (const char* sql : {"DELETE FROM agent_context_files WHERE agent_id = $1",
                            "DELETE FROM user_context_files WHERE agent_id = $1",
                            "DELETE FROM memory_documents WHERE agent_id = $1"}) {
      if (auto r = tx.Exec(sql, p); !r) return std::unexpected(r.error());
    }
    auto r = tx.Exec("DELETE FROM agents WHERE id = $1", p);
    if (!r) return std::unexpected(r.error());
    if (*r == 0) return Fail(ErrorCode::kNotFound, "agent not found");
    return {};
  });
}

}  // namespace clawtools::store
