// MCP access control in managed mode: per-agent and per-user grants on store-defined servers,
// access requests, and LoadForAgent, the servers one (agent, user) may use with their tool
// filters (tables of migration 003).
//
// Semantics (decided here, GoClaw's where it had them, stricter where it was loose):
//  * A server is accessible to (agent, user) when the server is enabled and the agent has an
//    enabled agent grant on it (no grant, no access).
//  * User grants restrict: once any user grant exists for a server (enabled or not), only
//    users with an enabled grant on it get the server; a call with no user then gets nothing.
//    With no user grants on a server, the agent grant alone decides.
//  * Tool filtering applies both grants (GoClaw ignored the user grant's lists): a tool must
//    pass the agent grant's filter and, when present, the user grant's. Per filter: a denied
//    tool is removed, then an allow list (when set) keeps only its tools; deny wins. Names are
//    the server's own tool names (before the mcp_<server>_ prefix).
//  * An agent grant's config_overrides ({"env":{}, "headers":{}, "args":[], "url", "timeout_sec"})
//    are merged into the server definition for that agent: maps key by key, the rest replaced.
//  * Access requests are created pending; reviewing one (approve or reject) sets it and, on
//    approval, upserts the enabled grant with the requested tool_allow, in one transaction:
//    either both happen or neither.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "mcp/server_config.h"
#include "store/store.h"

namespace clawtools::mcp {

struct ToolFilter {
  std::optional<std::vector<std::string>> allow;  // nullopt: every tool
  std::vector<std::string> deny;

  bool Allows(std::string_view tool) const;
  Json ToJson() const;
};

struct AgentGrant {
  std::string server;  // server name
  std::string agent_id;
  ToolFilter tools;
  Json config_overrides;  // null or an object
  bool enabled = true;
  std::string granted_by;
  Json ToJson() const;
};

struct UserGrant {
  std::string server;
  std::string user_id;
  ToolFilter tools;
  bool enabled = true;
  std::string granted_by;
  Json ToJson() const;
};

enum class RequestScope { kAgent, kUser };
enum class RequestStatus { kPending, kApproved, kRejected };
std::optional<RequestScope> ParseRequestScope(std::string_view s);
std::optional<RequestStatus> ParseRequestStatus(std::string_view s);
const char* RequestStatusName(RequestStatus s);

struct AccessRequest {
  std::string id;  // assigned by CreateRequest
  std::string server;
  RequestScope scope = RequestScope::kAgent;
  std::string agent_id;                           // scope agent
  std::string user_id;                            // scope user
  std::optional<std::vector<std::string>> tools;  // becomes the grant's tool_allow
  std::string reason;
  std::string requested_by;
  RequestStatus status = RequestStatus::kPending;
  std::string reviewer;
  std::string review_note;
  int64_t created_at = 0;
  int64_t reviewed_at = 0;
  Json ToJson() const;
};

// One server an (agent, user) may use: its definition with the agent's overrides applied and
// the filters that decide which of its tools they get.
struct AccessibleServer {
  McpServerConfig config;
  ToolFilter agent_filter;
  std::optional<ToolFilter> user_filter;

  bool Allows(std::string_view tool) const {
    return agent_filter.Allows(tool) && (!user_filter || user_filter->Allows(tool));
  }
};

class McpAccessStore {
 public:
  explicit McpAccessStore(store::Store& store) : store_(store) {}

  // Grants on servers by name; kNotFound for an unknown server or missing grant.
  Status PutAgentGrant(const AgentGrant& grant);
  Expected<AgentGrant> GetAgentGrant(const std::string& server, const std::string& agent);
  Status RemoveAgentGrant(const std::string& server, const std::string& agent);
  Status PutUserGrant(const UserGrant& grant);
  Expected<UserGrant> GetUserGrant(const std::string& server, const std::string& user);
  Status RemoveUserGrant(const std::string& server, const std::string& user);
  // Empty server: every server's.
  Expected<std::vector<AgentGrant>> ListAgentGrants(const std::string& server = "");
  Expected<std::vector<UserGrant>> ListUserGrants(const std::string& server = "");

  // Validates (server exists, scope's subject set) and stores a pending request.
  Expected<AccessRequest> CreateRequest(AccessRequest request);
  Expected<AccessRequest> GetRequest(const std::string& id);
  // Newest first; nullopt: every status.
  Expected<std::vector<AccessRequest>> ListRequests(std::optional<RequestStatus> status);
  // kNotFound unknown, kAlreadyExists when no longer pending. See the header comment.
  Expected<AccessRequest> ReviewRequest(const std::string& id, bool approve,
                                        const std::string& reviewer, const std::string& note = "");

  Expected<std::vector<AccessibleServer>> LoadForAgent(const std::string& agent,
                                                       const std::string& user);

 private:
  store::Store& store_;
};

// Applies an agent grant's config_overrides to a server definition.
McpServerConfig ApplyOverrides(McpServerConfig server, const Json& overrides);

}  // namespace clawtools::mcp
