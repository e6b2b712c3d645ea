#include "mcp/access_store.h"

#include <sys/random.h>

#include <algorithm>
#include <map>

#include "mcp/server_store.h"
#include "store/clock.h"

namespace clawtools::mcp {
namespace {

using store::Executor;
using store::Row;
using store::SqlValue;

std::optional<std::vector<std::string>> ParseList(const Row& r, size_t i) {
  if (r.IsNull(i)) return std::nullopt;
  Json j = Json::parse(r.Text(i), nullptr, false);
  if (!j.is_array()) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& v : j) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

SqlValue ListValue(const std::optional<std::vector<std::string>>& list) {
  return list ? SqlValue{Json(*list).dump()} : SqlValue{};
}

ToolFilter FilterFrom(const Row& r, size_t allow, size_t deny) {
  return ToolFilter{ParseList(r, allow), ParseList(r, deny).value_or(std::vector<std::string>{})};
}

Expected<std::string> ServerId(Executor& ex, const std::string& name) {
  auto rows = ex.Query("SELECT id FROM mcp_servers WHERE name = $1", {name});
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return Fail(ErrorCode::kNotFound, "no MCP server named " + name);
  return rows->front().Text(0);
}

Status Done(const Expected<int64_t>& r) {
  if (!r) return std::unexpected(r.error());
  return {};
}

Status UpsertAgentGrant(Executor& ex, const std::string& server_id, const AgentGrant& g) {
  return Done(ex.Exec(
      "INSERT INTO mcp_agent_grants (server_id, agent_id, tool_allow, tool_deny, "
      "config_overrides, enabled, granted_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
      "ON CONFLICT (server_id, agent_id) DO UPDATE SET tool_allow = excluded.tool_allow, "
      "tool_deny = excluded.tool_deny, config_overrides = excluded.config_overrides, "
      "enabled = excluded.enabled, granted_by = excluded.granted_by",
      {server_id, g.agent_id, ListValue(g.tools.allow), Json(g.tools.deny).dump(),
       g.config_overrides.is_null() ? SqlValue{} : SqlValue{g.config_overrides.dump()},
       int64_t{g.enabled ? 1 : 0}, g.granted_by, store::UnixMillisNow()}));
}

Status UpsertUserGrant(Executor& ex, const std::string& server_id, const UserGrant& g) {
  return Done(
      ex.Exec("INSERT INTO mcp_user_grants (server_id, user_id, tool_allow, tool_deny, enabled, "
              "granted_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) "
              "ON CONFLICT (server_id, user_id) DO UPDATE SET tool_allow = excluded.tool_allow, "
              "tool_deny = excluded.tool_deny, enabled = excluded.enabled, granted_by = "
              "excluded.granted_by",
              {server_id, g.user_id, ListValue(g.tools.allow), Json(g.tools.deny).dump(),
               int64_t{g.enabled ? 1 : 0}, g.granted_by, store::UnixMillisNow()}));
}

constexpr const char* kAgentGrantSelect =
    "SELECT s.name, g.agent_id, g.tool_allow, g.tool_deny, g.config_overrides, g.enabled, "
    "g.granted_by FROM mcp_agent_grants g JOIN mcp_servers s ON s.id = g.server_id ";
constexpr const char* kUserGrantSelect =
    "SELECT s.name, g.user_id, g.tool_allow, g.tool_deny, g.enabled, g.granted_by "
    "FROM mcp_user_grants g JOIN mcp_servers s ON s.id = g.server_id ";

AgentGrant AgentGrantFrom(const Row& r) {
  Json overrides = r.IsNull(4) ? Json() : Json::parse(r.Text(4), nullptr, false);
  if (overrides.is_discarded()) overrides = nullptr;
  return AgentGrant{r.Text(0), r.Text(1), FilterFrom(r, 2, 3), overrides, r.Int(5) != 0, r.Text(6)};
}

UserGrant UserGrantFrom(const Row& r) {
  return UserGrant{r.Text(0), r.Text(1), FilterFrom(r, 2, 3), r.Int(4) != 0, r.Text(5)};
}

constexpr const char* kRequestSelect =
    "SELECT r.id, s.name, r.scope, r.agent_id, r.user_id, r.tools, r.reason, r.status, "
    "r.reviewer, r.review_note, r.created_at, r.reviewed_at FROM mcp_access_requests r "
    "JOIN mcp_servers s ON s.id = r.server_id ";

AccessRequest RequestFrom(const Row& r) {
  AccessRequest a;
  a.id = r.Text(0);
  a.server = r.Text(1);
  a.scope = ParseRequestScope(r.Text(2)).value_or(RequestScope::kAgent);
  a.agent_id = r.Text(3);
  a.user_id = r.Text(4);
  a.tools = ParseList(r, 5);
  // The table has no requested_by column: it travels with the reason as {"reason", "by"}.
  Json reason = Json::parse(r.Text(6), nullptr, false);
  if (reason.is_object()) {
    a.reason = reason.value("reason", "");
    a.requested_by = reason.value("by", "");
  } else {
    a.reason = r.Text(6);
  }
  a.status = ParseRequestStatus(r.Text(7)).value_or(RequestStatus::kPending);
  a.reviewer = r.Text(8);
  a.review_note = r.Text(9);
  a.created_at = r.Int(10);
  a.reviewed_at = r.Int(11);
  return a;
}

std::string NewRequestId() {
  unsigned char b[12];
  if (getrandom(b, sizeof b, 0) != static_cast<ssize_t>(sizeof b)) {
    for (auto& c : b) c = static_cast<unsigned char>(store::UnixMillisNow() >> (c % 8));
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id = "mcpreq_";
  for (unsigned char c : b) {
    id.push_back(kHex[c >> 4]);
    id.push_back(kHex[c & 15]);
  }
  return id;
}

}  // namespace

bool ToolFilter::Allows(std::string_view tool) const {
  if (std::ranges::find(deny, tool) != deny.end()) return false;
  return !allow || std::ranges::find(*allow, tool) != allow->end();
}

Json ToolFilter::ToJson() const {
  return {{"tool_allow", allow ? Json(*allow) : Json()}, {"tool_deny", deny}};
}

Json AgentGrant::ToJson() const {
  Json j = tools.ToJson();
  j.update({{"server", server},
            {"agent", agent_id},
            {"config_overrides", config_overrides},
            {"enabled", enabled},
            {"granted_by", granted_by}});
  return j;
}

Json UserGrant::ToJson() const {
  Json j = tools.ToJson();
  j.update(
      {{"server", server}, {"user", user_id}, {"enabled", enabled}, {"granted_by", granted_by}});
  return j;
}

std::optional<RequestScope> ParseRequestScope(std::string_view s) {
  if (s == "agent") return RequestScope::kAgent;
  if (s == "user") return RequestScope::kUser;
  return std::nullopt;
}

std::optional<RequestStatus> ParseRequestStatus(std::string_view s) {
  if (s == "pending") return RequestStatus::kPending;
  if (s == "approved") return RequestStatus::kApproved;
  if (s == "rejected") return RequestStatus::kRejected;
  return std::nullopt;
}

const char* RequestStatusName(RequestStatus s) {
  switch (s) {
    case RequestStatus::kPending:
      return "pending";
    case RequestStatus::kApproved:
      return "approved";
    case RequestStatus::kRejected:
      return "rejected";
  }
  return "pending";
}

Json AccessRequest::ToJson() const {
  return {{"id", id},
          {"server", server},
          {"scope", scope == RequestScope::kAgent ? "agent" : "user"},
          {"agent", agent_id},
          {"user", user_id},
          {"tools", tools ? Json(*tools) : Json()},
          {"reason", reason},
          {"requested_by", requested_by},
          {"status", RequestStatusName(status)},
          {"reviewer", reviewer},
          {"review_note", review_note},
          {"created_at", created_at},
          {"reviewed_at", reviewed_at == 0 ? Json() : Json(reviewed_at)}};
}

Status McpAccessStore::PutAgentGrant(const AgentGrant& g) {
  if (g.agent_id.empty()) return Fail(ErrorCode::kInvalidArgument, "agent id must not be empty");
  if (!g.config_overrides.is_null() && !g.config_overrides.is_object()) {
    return Fail(ErrorCode::kInvalidArgument, "config_overrides must be an object");
  }
  auto id = ServerId(store_, g.server);
  if (!id) return std::unexpected(id.error());
  return UpsertAgentGrant(store_, *id, g);
}

Expected<AgentGrant> McpAccessStore::GetAgentGrant(const std::string& server,
                                                   const std::string& agent) {
  auto rows = store_.Query(std::string(kAgentGrantSelect) + "WHERE s.name = $1 AND g.agent_id = $2",
                           {server, agent});
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty())
    return Fail(ErrorCode::kNotFound, "no grant of " + server + " to agent " + agent);
  return AgentGrantFrom(rows->front());
}

Status McpAccessStore::RemoveAgentGrant(const std::string& server, const std::string& agent) {
  auto id = ServerId(store_, server);
  if (!id) return std::unexpected(id.error());
  auto n = store_.Exec("DELETE FROM mcp_agent_grants WHERE server_id = $1 AND agent_id = $2",
                       {*id, agent});
  if (!n) return std::unexpected(n.error());
  if (*n == 0) return Fail(ErrorCode::kNotFound, "no grant of " + server + " to agent " + agent);
  return {};
}

Status McpAccessStore::PutUserGrant(const UserGrant& g) {
  if (g.user_id.empty()) return Fail(ErrorCode::kInvalidArgument, "user id must not be empty");
  auto id = ServerId(store_, g.server);
  if (!id) return std::unexpected(id.error());
  return UpsertUserGrant(store_, *id, g);
}

Expected<UserGrant> McpAccessStore::GetUserGrant(const std::string& server,
                                                 const std::string& user) {
  auto rows = store_.Query(std::string(kUserGrantSelect) + "WHERE s.name = $1 AND g.user_id = $2",
                           {server, user});
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty())
    return Fail(ErrorCode::kNotFound, "no grant of " + server + " to user " + user);
  return UserGrantFrom(rows->front());
}

Status McpAccessStore::RemoveUserGrant(const std::string& server, const std::string& user) {
  auto id = ServerId(store_, server);
  if (!id) return std::unexpected(id.error());
  auto n =
      store_.Exec("DELETE FROM mcp_user_grants WHERE server_id = $1 AND user_id = $2", {*id, user});
  if (!n) return std::unexpected(n.error());
  if (*n == 0) return Fail(ErrorCode::kNotFound, "no grant of " + server + " to user " + user);
  return {};
}

Expected<std::vector<AgentGrant>> McpAccessStore::ListAgentGrants(const std::string& server) {
  auto rows = server.empty()
                  ? store_.Query(std::string(kAgentGrantSelect) + "ORDER BY s.name, g.agent_id")
                  : store_.Query(std::string(kAgentGrantSelect) +
                                     "WHERE s.name = $1 ORDER BY s.name, g.agent_id",
                                 {server});
  if (!rows) return std::unexpected(rows.error());
  std::vector<AgentGrant> out;
  for (const Row& r : *rows) out.push_back(AgentGrantFrom(r));
  return out;
}

Expected<std::vector<UserGrant>> McpAccessStore::ListUserGrants(const std::string& server) {
  auto rows = server.empty()
                  ? store_.Query(std::string(kUserGrantSelect) + "ORDER BY s.name, g.user_id")
                  : store_.Query(std::string(kUserGrantSelect) +
                                     "WHERE s.name = $1 ORDER BY s.name, g.user_id",
                                 {server});
  if (!rows) return std::unexpected(rows.error());
  std::vector<UserGrant> out;
  for (const Row& r : *rows) out.push_back(UserGrantFrom(r));
  return out;
}

Expected<AccessRequest> McpAccessStore::CreateRequest(AccessRequest req) {
  if (req.scope == RequestScope::kAgent ? req.agent_id.empty() : req.user_id.empty()) {
    return Fail(ErrorCode::kInvalidArgument, req.scope == RequestScope::kAgent
                                                 ? "an agent-scope request needs an agent"
                                                 : "a user-scope request needs a user");
  }
  auto server_id = ServerId(store_, req.server);
  if (!server_id) return std::unexpected(server_id.error());
  req.id = NewRequestId();
  req.status = RequestStatus::kPending;
  req.created_at = store::UnixMillisNow();
  auto r = store_.Exec(
      "INSERT INTO mcp_access_requests (id, server_id, scope, agent_id, user_id, tools, reason, "
      "status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8)",
      {req.id, *server_id, std::string(req.scope == RequestScope::kAgent ? "agent" : "user"),
       req.agent_id, req.user_id, ListValue(req.tools),
       Json{{"reason", req.reason}, {"by", req.requested_by}}.dump(), req.created_at});
  if (!r) return std::unexpected(r.error());
  return req;
}

Expected<AccessRequest> McpAccessStore::GetRequest(const std::string& id) {
  auto rows = store_.Query(std::string(kRequestSelect) + "WHERE r.id = $1", {id});
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return Fail(ErrorCode::kNotFound, "no access request " + id);
  return RequestFrom(rows->front());
}

Expected<std::vector<AccessRequest>> McpAccessStore::ListRequests(
    std::optional<RequestStatus> status) {
  auto rows = status
                  ? store_.Query(std::string(kRequestSelect) +
                                     "WHERE r.status = $1 ORDER BY r.created_at DESC, r.id",
                                 {std::string(RequestStatusName(*status))})
                  : store_.Query(std::string(kRequestSelect) + "ORDER BY r.created_at DESC, r.id");
  if (!rows) return std::unexpected(rows.error());
  std::vector<AccessRequest> out;
  for (const Row& r : *rows) out.push_back(RequestFrom(r));
  return out;
}

Expected<AccessRequest> McpAccessStore::ReviewRequest(const std::string& id, bool approve,
                                                      const std::string& reviewer,
                                                      const std::string& note) {
  return store_.InTransaction([&](store::Transaction& tx) -> Expected<AccessRequest> {
    auto rows = tx.Query(std::string(kRequestSelect) + "WHERE r.id = $1", {id});
    if (!rows) return std::unexpected(rows.error());
    if (rows->empty()) return Fail(ErrorCode::kNotFound, "no access request " + id);
    AccessRequest req = RequestFrom(rows->front());
    if (req.status != RequestStatus::kPending) {
      return Fail(ErrorCode::kAlreadyExists,
                  "access request " + id + " is already " + RequestStatusName(req.status));
    }
    req.status = approve ? RequestStatus::kApproved : RequestStatus::kRejected;
    req.reviewer = reviewer;
    req.review_note = note;
    req.reviewed_at = store::UnixMillisNow();
    // The status guard makes a concurrent second review lose cleanly.
    auto n = tx.Exec(
        "UPDATE mcp_access_requests SET status = $1, reviewer = $2, review_note = $3, "
        "reviewed_at = $4 WHERE id = $5 AND status = 'pending'",
        {std::string(RequestStatusName(req.status)), reviewer, note, req.reviewed_at, id});
    if (!n) return std::unexpected(n.error());
    if (*n != 1)
      return Fail(ErrorCode::kAlreadyExists, "access request " + id + " was reviewed concurrently");
    if (approve) {
      auto server_id = ServerId(tx, req.server);
      if (!server_id) return std::unexpected(server_id.error());
      Status granted =
          req.scope == RequestScope::kAgent
              ? UpsertAgentGrant(tx, *server_id,
                                 AgentGrant{req.server,
                                            req.agent_id,
                                            {req.tools, {}},
                                            nullptr,
                                            true,
                                            "request:" + reviewer})
              : UpsertUserGrant(
                    tx, *server_id,
                    UserGrant{
                        req.server, req.user_id, {req.tools, {}}, true, "request:" + reviewer});
      if (!granted) return std::unexpected(granted.error());
    }
    return req;
  });
}

Expected<std::vector<AccessibleServer>> McpAccessStore::LoadForAgent(const std::string& agent,
                                                                     const std::string& user) {
  auto servers = McpServerStore(store_).List();
  if (!servers) return std::unexpected(servers.error());
  auto agent_grants =
      store_.Query(std::string(kAgentGrantSelect) + "WHERE g.agent_id = $1", {agent});
  if (!agent_grants) return std::unexpected(agent_grants.error());
  auto user_grants = store_.Query(std::string(kUserGrantSelect));
  if (!user_grants) return std::unexpected(user_grants.error());

  std::map<std::string, AgentGrant> by_server;
  for (const Row& r : *agent_grants) {
    AgentGrant g = AgentGrantFrom(r);
    if (g.enabled) by_server.emplace(g.server, std::move(g));
  }
  std::map<std::string, std::vector<UserGrant>> users_of;
  for (const Row& r : *user_grants) {
    UserGrant g = UserGrantFrom(r);
    users_of[g.server].push_back(std::move(g));
  }

  std::vector<AccessibleServer> out;
  for (auto& s : *servers) {
    if (!s.enabled) continue;
    auto grant = by_server.find(s.name);
    if (grant == by_server.end()) continue;
    std::optional<ToolFilter> user_filter;
    if (auto u = users_of.find(s.name); u != users_of.end()) {
      auto mine = std::ranges::find_if(u->second, [&](const UserGrant& g) {
        return g.enabled && !user.empty() && g.user_id == user;
      });
      if (mine == u->second.end()) continue;
      user_filter = mine->tools;
    }
    out.push_back(AccessibleServer{ApplyOverrides(std::move(s), grant->second.config_overrides),
                                   grant->second.tools, std::move(user_filter)});
  }
  return out;
}

McpServerConfig ApplyOverrides(McpServerConfig server, const Json& o) {
  if (!o.is_object()) return server;
  auto merge = [](std::map<std::string, std::string>& into, const Json& from) {
    if (!from.is_object()) return;
    for (const auto& [k, v] : from.items()) {
      if (v.is_string()) into[k] = v.get<std::string>();
    }
  };
  if (o.contains("env")) merge(server.env, o["env"]);
  if (o.contains("headers")) merge(server.headers, o["headers"]);
  if (auto a = o.find("args"); a != o.end() && a->is_array()) {
    server.args.clear();
    for (const auto& v : *a) {
      if (v.is_string()) server.args.push_back(v.get<std::string>());
    }
  }
  if (auto u = o.find("url"); u != o.end() && u->is_string()) server.url = u->get<std::string>();
  if (auto t = o.find("timeout_sec"); t != o.end() && t->is_number_integer() && t->get<int>() > 0) {
    server.timeout = std::chrono::seconds(t->get<int>());
  }
  return server;
}

}  // namespace clawtools::mcp
