#include "gateway/admin_mcp_routes.h"

#include "mcp/access_store.h"
#include "mcp/manager.h"
#include "mcp/server_store.h"

namespace clawtools {
namespace {

using mcp::McpAccessStore;

Json Keys(const std::map<std::string, std::string>& m) {
  Json out = Json::array();
  for (const auto& [k, _] : m) out.push_back(k);
  return out;
}

// Env and header values may be credentials: only their names leave the store.
Json ServerJson(const mcp::McpServerConfig& s) {
  return {{"name", s.name},
          {"transport", mcp::TransportKindName(s.transport)},
          {"command", s.command},
          {"args", s.args},
          {"url", s.url},
          {"env_keys", Keys(s.env)},
          {"header_keys", Keys(s.headers)},
          {"enabled", s.enabled},
          {"tool_prefix", s.tool_prefix},
          {"timeout_sec", s.timeout.count()}};
}

Expected<Json> Body(const HttpRequest& r) {
  Json body = Json::parse(r.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) {
    return Fail(ErrorCode::kInvalidArgument, "body must be a JSON object");
  }
  return body;
}

Expected<std::optional<std::vector<std::string>>> StringList(const Json& body, const char* key) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_array())
    return Fail(ErrorCode::kInvalidArgument, std::string(key) + " must be an array");
  std::vector<std::string> out;
  for (const auto& v : *it) {
    if (!v.is_string())
      return Fail(ErrorCode::kInvalidArgument, std::string(key) + " must hold strings");
    out.push_back(v.get<std::string>());
  }
  return out;
}

Expected<mcp::ToolFilter> FilterFrom(const Json& body) {
  auto allow = StringList(body, "tool_allow");
  if (!allow) return std::unexpected(allow.error());
  auto deny = StringList(body, "tool_deny");
  if (!deny) return std::unexpected(deny.error());
  return mcp::ToolFilter{*allow, deny->value_or(std::vector<std::string>{})};
}

std::string Text(const Json& body, const char* key) {
  auto it = body.find(key);
  return it != body.end() && it->is_string() ? it->get<std::string>() : "";
}

HttpResponse PutServer(const Runtime& rt, const std::string& name, const Json& body, int status) {
  Json def = body;
  def.erase("name");
  auto parsed = mcp::ParseMcpServers(Json{{name, def}});
  if (!parsed) return ErrorResponseFor(parsed.error());
  if (auto id = mcp::McpServerStore(rt.store()).Put(parsed->front()); !id)
    return ErrorResponseFor(id.error());
  return JsonResponse(status, ServerJson(parsed->front()));
}

std::optional<mcp::McpServerConfig> FindServer(const Runtime& rt, const std::string& name,
                                               Error* error) {
  auto list = mcp::McpServerStore(rt.store()).List();
  if (!list) {
    *error = list.error();
    return std::nullopt;
  }
  for (auto& s : *list) {
    if (s.name == name) return s;
  }
  *error = MakeError(ErrorCode::kNotFound, "no MCP server named " + name);
  return std::nullopt;
}

Json StatusJson(const mcp::McpServerStatus& s) {
  return {{"name", s.name},
          {"phase", mcp::ServerPhaseName(s.phase)},
          {"attempts", s.attempts},
          {"last_error", s.last_error},
          {"protocol_version", s.protocol_version},
          {"tools", s.tools},
          {"drifted", s.drifted},
          {"pid", s.pid}};
}

}  // namespace

void AddAdminMcpRoutes(Router& router, const Runtime& rt) {
  const RouteTraits blocking{.blocking = true};
  const Runtime* r = &rt;

  router.Add(
      "GET", "/v1/mcp/servers",
      [r](const HttpRequest&) {
        auto list = mcp::McpServerStore(r->store()).List();
        if (!list) return ErrorResponseFor(list.error());
        Json out = Json::array();
        for (const auto& s : *list) out.push_back(ServerJson(s));
        return JsonResponse(200, out);
      },
      blocking);
  router.Add(
      "POST", "/v1/mcp/servers",
      [r](const HttpRequest& req) {
        auto body = Body(req);
        if (!body) return ErrorResponseFor(body.error());
        std::string name = Text(*body, "name");
        if (name.empty()) return ErrorResponse(400, "name is required");
        return PutServer(*r, name, *body, 201);
      },
      blocking);
  router.Add(
      "GET", "/v1/mcp/servers/{name}",
      [r](const HttpRequest& req) {
        Error e;
        auto s = FindServer(*r, req.params.at("name"), &e);
        return s ? JsonResponse(200, ServerJson(*s)) : ErrorResponseFor(e);
      },
      blocking);
  router.Add(
      "PUT", "/v1/mcp/servers/{name}",
      [r](const HttpRequest& req) {
        auto body = Body(req);
        if (!body) return ErrorResponseFor(body.error());
        return PutServer(*r, req.params.at("name"), *body, 200);
      },
      blocking);
  router.Add(
      "DELETE", "/v1/mcp/servers/{name}",
      [r](const HttpRequest& req) {
        Error e;
        if (!FindServer(*r, req.params.at("name"), &e)) return ErrorResponseFor(e);
        if (auto st = mcp::McpServerStore(r->store()).Remove(req.params.at("name")); !st) {
          return ErrorResponseFor(st.error());
        }
        return JsonResponse(200, {{"removed", req.params.at("name")}});
      },
      blocking);

  router.Add(
      "GET", "/v1/mcp/servers/{name}/grants",
      [r](const HttpRequest& req) {
        McpAccessStore access(r->store());
        auto agents = access.ListAgentGrants(req.params.at("name"));
        if (!agents) return ErrorResponseFor(agents.error());
        auto users = access.ListUserGrants(req.params.at("name"));
        if (!users) return ErrorResponseFor(users.error());
        Json out = {{"agents", Json::array()}, {"users", Json::array()}};
        for (const auto& g : *agents) out["agents"].push_back(g.ToJson());
        for (const auto& g : *users) out["users"].push_back(g.ToJson());
        return JsonResponse(200, out);
      },
      blocking);
  const std::string agent_grant = "/v1/mcp/servers/{name}/grants/agents/{agent}";
  router.Add(
      "GET", agent_grant,
      [r](const HttpRequest& req) {
        auto g =
            McpAccessStore(r->store()).GetAgentGrant(req.params.at("name"), req.params.at("agent"));
        return g ? JsonResponse(200, g->ToJson()) : ErrorResponseFor(g.error());
      },
      blocking);
  router.Add(
      "PUT", agent_grant,
      [r](const HttpRequest& req) {
        auto body = Body(req);
        if (!body) return ErrorResponseFor(body.error());
        auto filter = FilterFrom(*body);
        if (!filter) return ErrorResponseFor(filter.error());
        mcp::AgentGrant g{
            req.params.at("name"),
            req.params.at("agent"),
            *filter,
            body->value("config_overrides", Json()),
            body->value("enabled", true),
            Text(*body, "granted_by").empty() ? "http" : "http:" + Text(*body, "granted_by")};
        if (auto st = McpAccessStore(r->store()).PutAgentGrant(g); !st) return ErrorResponseFor(st.error());
        return JsonResponse(200, g.ToJson());
      },
      blocking);
  router.Add(
      "DELETE", agent_grant,
      [r](const HttpRequest& req) {
        auto st = McpAccessStore(r->store())
                      .RemoveAgentGrant(req.params.at("name"), req.params.at("agent"));
        return st ? JsonResponse(200, {{"removed", req.params.at("agent")}}) : ErrorResponseFor(st.error());
      },
      blocking);
  const std::string user_grant = "/v1/mcp/servers/{name}/grants/users/{user}";
  router.Add(
      "GET", user_grant,
      [r](const HttpRequest& req) {
        auto g =
            McpAccessStore(r->store()).GetUserGrant(req.params.at("name"), req.params.at("user"));
        return g ? JsonResponse(200, g->ToJson()) : ErrorResponseFor(g.error());
      },
      blocking);
  router.Add(
      "PUT", user_grant,
      [r](const HttpRequest& req) {
        auto body = Body(req);
        if (!body) return ErrorResponseFor(body.error());
        auto filter = FilterFrom(*body);
        if (!filter) return ErrorResponseFor(filter.error());
        mcp::UserGrant g{
            req.params.at("name"), req.params.at("user"), *filter, body->value("enabled", true),
            Text(*body, "granted_by").empty() ? "http" : "http:" + Text(*body, "granted_by")};
        if (auto st = McpAccessStore(r->store()).PutUserGrant(g); !st) return ErrorResponseFor(st.error());
        return JsonResponse(200, g.ToJson());
      },
      blocking);
  router.Add(
      "DELETE", user_grant,
      [r](const HttpRequest& req) {
        auto st = McpAccessStore(r->store())
                      .RemoveUserGrant(req.params.at("name"), req.params.at("user"));
        return st ? JsonResponse(200, {{"removed", req.params.at("user")}}) : ErrorResponseFor(st.error());
      },
      blocking);

  router.Add(
      "GET", "/v1/mcp/requests",
      [r](const HttpRequest& req) {
        std::string_view wanted = req.Query("status").value_or("pending");
        std::optional<mcp::RequestStatus> status;
        if (wanted != "all") {
          status = mcp::ParseRequestStatus(wanted);
          if (!status)
            return ErrorResponse(400, "status must be pending, approved, rejected or all");
        }
        auto list = McpAccessStore(r->store()).ListRequests(status);
        if (!list) return ErrorResponseFor(list.error());
        Json out = Json::array();
        for (const auto& a : *list) out.push_back(a.ToJson());
        return JsonResponse(200, out);
      },
      blocking);
  router.Add(
      "POST", "/v1/mcp/requests",
      [r](const HttpRequest& req) {
        auto body = Body(req);
        if (!body) return ErrorResponseFor(body.error());
        auto scope = mcp::ParseRequestScope(Text(*body, "scope"));
        if (!scope) return ErrorResponse(400, "scope must be agent or user");
        auto tools = StringList(*body, "tools");
        if (!tools) return ErrorResponseFor(tools.error());
        mcp::AccessRequest a;
        a.server = Text(*body, "server");
        a.scope = *scope;
        a.agent_id = Text(*body, "agent");
        a.user_id = Text(*body, "user");
        a.tools = *tools;
        a.reason = Text(*body, "reason");
        a.requested_by = Text(*body, "requested_by");
        auto created = McpAccessStore(r->store()).CreateRequest(std::move(a));
        return created ? JsonResponse(201, created->ToJson()) : ErrorResponseFor(created.error());
      },
      blocking);
  router.Add(
      "GET", "/v1/mcp/requests/{id}",
      [r](const HttpRequest& req) {
        auto a = McpAccessStore(r->store()).GetRequest(req.params.at("id"));
        return a ? JsonResponse(200, a->ToJson()) : ErrorResponseFor(a.error());
      },
      blocking);
  router.Add(
      "POST", "/v1/mcp/requests/{id}",
      [r](const HttpRequest& req) {
        auto body = Body(req);
        if (!body) return ErrorResponseFor(body.error());
        std::string decision = Text(*body, "decision");
        if (decision != "approve" && decision != "reject") {
          return ErrorResponse(400, "decision must be approve or reject");
        }
        std::string reviewer = Text(*body, "reviewer");
        auto a =
            McpAccessStore(r->store())
                .ReviewRequest(req.params.at("id"), decision == "approve",
                               reviewer.empty() ? "http" : "http:" + reviewer, Text(*body, "note"));
        return a ? JsonResponse(200, a->ToJson()) : ErrorResponseFor(a.error());
      },
      blocking);

  router.Add("GET", "/v1/mcp/status", [r](const HttpRequest&) {
    Json out = Json::array();
    for (const auto& s : r->mcp().Servers()) out.push_back(StatusJson(s));
    return JsonResponse(200, out);
  });
  router.Add(
      "POST", "/v1/mcp/servers/{name}/tools/{tool}/approve-drift",
      [r](const HttpRequest& req) {
        auto st = r->mcp().ApproveDrift(req.params.at("name"), req.params.at("tool"));
        if (!st) return ErrorResponseFor(st.error());
        return JsonResponse(
            200, {{"approved", req.params.at("tool")}, {"server", req.params.at("name")}});
      },
      blocking);
}

}  // namespace clawtools
