// `clawtools mcp-stdio`: the runtime's tools as an MCP server on stdin/stdout.
// `clawtools mcp servers|grant|requests ...`: MCP servers, grants and access requests, read
// and written straight in the store (like `approvals`), so they work beside a running gateway.
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/runtime_flags.h"
#include "config/config.h"
#include "mcp/access_store.h"
#include "mcp/server_stdio.h"
#include "mcp/server_store.h"
#include "mcp_server/runtime_backend.h"
#include "store/store.h"
#include "version.h"

namespace clawtools::cli {
namespace {

Expected<std::unique_ptr<store::Store>> OpenConfiguredStore(const CommonFlags& flags) {
  auto config =
      flags.config.empty() ? Config::Parse("{}", "defaults") : Config::LoadFile(flags.config);
  if (!config) return std::unexpected(config.error());
  if (!flags.db.empty()) config->SetOverride("/db", flags.db);
  return store::OpenStore(config->db_url());
}

std::string Who(const std::string& given) {
  if (!given.empty()) return given;
  const char* user = std::getenv("USER");
  return std::string("cli") + (user && *user ? std::string(":") + user : "");
}

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

Expected<std::map<std::string, std::string>> ParsePairs(const std::vector<std::string>& pairs) {
  std::map<std::string, std::string> out;
  for (const auto& p : pairs) {
    size_t eq = p.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Fail(ErrorCode::kInvalidArgument, "expected KEY=VALUE, got " + p);
    }
    out[p.substr(0, eq)] = p.substr(eq + 1);
  }
  return out;
}

Json ServerJson(const mcp::McpServerConfig& s) {
  return {{"name", s.name},
          {"transport", mcp::TransportKindName(s.transport)},
          {"command", s.command},
          {"args", s.args},
          {"url", s.url},
          {"env_keys",
           [&] {
             Json keys = Json::array();  // values may be secrets: names only
             for (const auto& [k, _] : s.env) keys.push_back(k);
             return keys;
           }()},
          {"enabled", s.enabled},
          {"tool_prefix", s.tool_prefix},
          {"timeout_sec", s.timeout.count()}};
}

int Report(const Error& e) {
  std::cerr << "clawtools mcp: " << e.log_message() << "\n";
  return e.code == ErrorCode::kInvalidArgument ? kExitUsage : kExitFailure;
}

int Print(const Json& j) {
  std::cout << j.dump(2) << "\n";
  return kExitOk;
}

int Servers(const McpFlags& f, store::Store& db) {
  mcp::McpServerStore servers(db);
  if (f.action == "list") {
    auto list = servers.List();
    if (!list) return Report(list.error());
    Json out = Json::array();
    for (const auto& s : *list) out.push_back(ServerJson(s));
    return Print(out);
  }
  if (f.action == "rm") {
    if (auto st = servers.Remove(f.name); !st) return Report(st.error());
    return kExitOk;
  }
  mcp::McpServerConfig c;
  c.name = f.name;
  std::string transport =
      f.transport.empty() ? (f.url.empty() ? "stdio" : "streamable-http") : f.transport;
  auto kind = mcp::ParseTransportKind(transport);
  if (!kind)
    return Report(MakeError(ErrorCode::kInvalidArgument, "unknown transport " + transport));
  c.transport = *kind;
  if (c.transport == mcp::TransportKind::kStdio ? f.command.empty() : f.url.empty()) {
    return Report(MakeError(ErrorCode::kInvalidArgument,
                            "a stdio server needs --command, an HTTP one --url"));
  }
  c.command = f.command;
  c.args = f.args;
  c.url = f.url;
  auto env = ParsePairs(f.env);
  auto headers = ParsePairs(f.headers);
  if (!env) return Report(env.error());
  if (!headers) return Report(headers.error());
  c.env = std::move(*env);
  c.headers = std::move(*headers);
  c.enabled = !f.disabled;
  c.tool_prefix = f.tool_prefix;
  if (f.timeout_sec > 0) c.timeout = std::chrono::seconds(f.timeout_sec);
  if (auto id = servers.Put(c); !id) return Report(id.error());
  return Print(ServerJson(c));
}

int Grants(const McpFlags& f, store::Store& db) {
  mcp::McpAccessStore access(db);
  if (f.action == "list") {
    auto agents = access.ListAgentGrants(f.name);
    auto users = access.ListUserGrants(f.name);
    if (!agents) return Report(agents.error());
    if (!users) return Report(users.error());
    Json out = {{"agents", Json::array()}, {"users", Json::array()}};
    for (const auto& g : *agents) out["agents"].push_back(g.ToJson());
    for (const auto& g : *users) out["users"].push_back(g.ToJson());
    return Print(out);
  }
  mcp::ToolFilter filter;
  if (f.allow) filter.allow = SplitList(*f.allow);
  filter.deny = SplitList(f.deny);
  if (f.action == "agent") {
    if (f.revoke) {
      auto st = access.RemoveAgentGrant(f.name, f.subject);
      return st ? kExitOk : Report(st.error());
    }
    Json overrides;
    if (!f.overrides.empty()) {
      overrides = Json::parse(f.overrides, nullptr, false);
      if (!overrides.is_object()) {
        return Report(MakeError(ErrorCode::kInvalidArgument, "--overrides must be a JSON object"));
      }
    }
    mcp::AgentGrant g{f.name, f.subject, filter, overrides, !f.disabled, Who(f.by)};
    if (auto st = access.PutAgentGrant(g); !st) return Report(st.error());
    return Print(g.ToJson());
  }
  if (f.revoke) {
    auto st = access.RemoveUserGrant(f.name, f.subject);
    return st ? kExitOk : Report(st.error());
  }
  mcp::UserGrant g{f.name, f.subject, filter, !f.disabled, Who(f.by)};
  if (auto st = access.PutUserGrant(g); !st) return Report(st.error());
  return Print(g.ToJson());
}

int Requests(const McpFlags& f, store::Store& db) {
  mcp::McpAccessStore access(db);
  if (f.action == "list") {
    std::optional<mcp::RequestStatus> status;
    if (f.status != "all") {
      status = mcp::ParseRequestStatus(f.status);
      if (!status) {
        return Report(MakeError(ErrorCode::kInvalidArgument,
                                "--status must be pending, approved, rejected or all"));
      }
    }
    auto list = access.ListRequests(status);
    if (!list) return Report(list.error());
    Json out = Json::array();
    for (const auto& r : *list) out.push_back(r.ToJson());
    return Print(out);
  }
  if (f.action == "create") {
    mcp::AccessRequest r;
    r.server = f.name;
    r.scope = f.agent.empty() ? mcp::RequestScope::kUser : mcp::RequestScope::kAgent;
    r.agent_id = f.agent;
    r.user_id = f.user;
    if (f.allow) r.tools = SplitList(*f.allow);
    r.reason = f.reason;
    r.requested_by = Who(f.by);
    auto created = access.CreateRequest(std::move(r));
    if (!created) return Report(created.error());
    return Print(created->ToJson());
  }
  auto reviewed = access.ReviewRequest(f.id, f.action == "approve", Who(f.by), f.note);
  if (!reviewed) return Report(reviewed.error());
  return Print(reviewed->ToJson());
}

}  // namespace

int RunMcpStdio(const McpStdioFlags& flags) {
  // stdout is the protocol; the runtime logs to stderr.
  std::signal(SIGPIPE, SIG_IGN);
  auto runtime = MakeRuntime(flags.common, LogLevel::kWarn);
  if (!runtime) {
    std::cerr << "clawtools mcp-stdio: " << runtime.error().log_message() << "\n";
    return kExitFailure;
  }
  mcp::McpCaller caller{flags.agent, flags.user, flags.provider, "mcp:stdio", "mcp"};
  mcp::McpServerSession session(std::make_shared<mcp::RuntimeToolBackend>(**runtime, caller),
                                {.server_name = "clawtools", .server_version = CLAWTOOLS_VERSION});
  if (auto st = mcp::ServeStdio(session, 0, 1); !st) {
    std::cerr << "clawtools mcp-stdio: " << st.error().log_message() << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

int RunMcp(const McpFlags& flags) {
  auto db = OpenConfiguredStore(flags.common);
  if (!db) return Report(db.error());
  if (flags.area == "servers") return Servers(flags, **db);
  if (flags.area == "grant") return Grants(flags, **db);
  return Requests(flags, **db);
}

}  // namespace clawtools::cli
