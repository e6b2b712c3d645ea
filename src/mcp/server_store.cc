#include "mcp/server_store.h"

#include <algorithm>
#include <set>

#include "store/clock.h"

namespace clawtools::mcp {
namespace {

using store::Row;

template <class T>
T FromJsonText(const std::string& text) {
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded()) return T{};
  try {
    return j.get<T>();
  } catch (const Json::exception&) {
    return T{};
  }
}

constexpr const char* kColumns =
    "name, transport, command, args, env, url, headers, enabled, tool_prefix, timeout_sec";

McpServerConfig FromRow(const Row& r) {
  McpServerConfig c;
  c.name = r.Text(0);
  c.transport = ParseTransportKind(r.Text(1)).value_or(TransportKind::kStdio);
  c.command = r.Text(2);
  c.args = FromJsonText<std::vector<std::string>>(r.Text(3));
  c.env = FromJsonText<std::map<std::string, std::string>>(r.Text(4));
  c.url = r.Text(5);
  c.headers = FromJsonText<std::map<std::string, std::string>>(r.Text(6));
  c.enabled = r.Int(7) != 0;
  c.tool_prefix = r.Text(8);
  c.timeout = std::chrono::seconds(r.Int(9));
  return c;
}

}  // namespace

Expected<std::vector<McpServerConfig>> McpServerStore::List() const {
  auto rows = store_.Query(std::string("SELECT ") + kColumns + " FROM mcp_servers");
  if (!rows) return std::unexpected(rows.error());
  std::vector<McpServerConfig> out;
  for (const Row& r : *rows) out.push_back(FromRow(r));
  std::ranges::sort(out, {}, &McpServerConfig::name);
  return out;
}

Expected<std::string> McpServerStore::Put(const McpServerConfig& c) const {
  if (c.name.empty()) return Fail(ErrorCode::kInvalidArgument, "MCP server name must not be empty");
  int64_t now = store::UnixMillisNow();
  std::string id = "mcp-" + c.name;
  auto r = store_.Exec(
      "INSERT INTO mcp_servers (id, name, transport, command, args, env, url, headers, enabled, "
      "tool_prefix, timeout_sec, created_at, updated_at) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) "
      "ON CONFLICT (name) DO UPDATE SET transport = excluded.transport, command = "
      "excluded.command, "
      "args = excluded.args, env = excluded.env, url = excluded.url, headers = excluded.headers, "
      "enabled = excluded.enabled, tool_prefix = excluded.tool_prefix, "
      "timeout_sec = excluded.timeout_sec, updated_at = excluded.updated_at",
      {id, c.name, std::string(TransportKindName(c.transport)), c.command, Json(c.args).dump(),
       Json(c.env).dump(), c.url, Json(c.headers).dump(), int64_t{c.enabled ? 1 : 0}, c.tool_prefix,
       static_cast<int64_t>(c.timeout.count()), now});
  if (!r) return std::unexpected(r.error());
  auto rows = store_.Query("SELECT id FROM mcp_servers WHERE name = $1", {c.name});
  if (!rows) return std::unexpected(rows.error());
  return rows->empty() ? id : rows->front().Text(0);
}

Status McpServerStore::Remove(const std::string& name) const {
  auto r = store_.Exec("DELETE FROM mcp_servers WHERE name = $1", {name});
  if (!r) return std::unexpected(r.error());
  return {};
}

Expected<std::optional<ToolHashRecord>> StoreToolHashes::Get(const std::string& server,
                                                             const std::string& tool) {
  auto rows = store_.Query(
      "SELECT hash, pending_hash, status FROM mcp_tool_hashes WHERE server_name = $1 AND tool_name "
      "= $2",
      {server, tool});
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::nullopt;
  const Row& r = rows->front();
  return ToolHashRecord{r.Text(0), r.Text(1),
                        ParseHashStatus(r.Text(2)).value_or(HashStatus::kDrifted)};
}

Status StoreToolHashes::Put(const std::string& server, const std::string& tool,
                            const ToolHashRecord& rec) {
  int64_t now = store::UnixMillisNow();
  store::SqlValue pending =
      rec.pending_hash.empty() ? store::SqlValue{} : store::SqlValue{rec.pending_hash};
  auto r = store_.Exec(
      "INSERT INTO mcp_tool_hashes (server_name, tool_name, hash, pending_hash, status, "
      "first_seen, updated_at) "
      "VALUES ($1, $2, $3, $4, $5, $6, $6) "
      "ON CONFLICT (server_name, tool_name) DO UPDATE SET hash = excluded.hash, "
      "pending_hash = excluded.pending_hash, status = excluded.status, updated_at = "
      "excluded.updated_at",
      {server, tool, rec.hash, pending, std::string(HashStatusName(rec.status)), now});
  if (!r) return std::unexpected(r.error());
  return {};
}

Expected<std::vector<McpServerConfig>> LoadMcpServers(const Json& config_mcp_servers,
                                                      store::Store* store) {
  auto servers = ParseMcpServers(config_mcp_servers);
  if (!servers || !store) return servers;
  auto stored = McpServerStore(*store).List();
  if (!stored) return std::unexpected(stored.error());
  std::set<std::string> names;
  for (const auto& s : *servers) names.insert(s.name);
  for (auto& s : *stored) {
    if (!names.contains(s.name)) servers->push_back(std::move(s));
  }
  return servers;
}

}  // namespace clawtools::mcp
