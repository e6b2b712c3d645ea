// HTTP administration of MCP servers, grants and access requests (behind the gateway token;
// every handler touches the store, so all run on the worker pool):
//
//   GET    /v1/mcp/servers                          store servers (env/header values withheld)
//   POST   /v1/mcp/servers                          body {"name", "transport", "command", "args",
//                                                   "url", "env", "headers", "enabled",
//                                                   "tool_prefix", "timeout_sec"}; 201
//   GET|PUT|DELETE /v1/mcp/servers/{name}           PUT body as POST without "name"
//   GET    /v1/mcp/servers/{name}/grants            {"agents": [...], "users": [...]}
//   GET|PUT|DELETE /v1/mcp/servers/{name}/grants/agents/{agent}
//                                                   PUT body {"tool_allow": [..]|null,
//                                                   "tool_deny": [..], "config_overrides": {},
//                                                   "enabled", "granted_by"}
//   GET|PUT|DELETE /v1/mcp/servers/{name}/grants/users/{user}   (no config_overrides)
//   GET    /v1/mcp/requests[?status=pending|approved|rejected|all]   default pending
//   POST   /v1/mcp/requests                         body {"server", "scope": "agent"|"user",
//                                                   "agent"|"user", "tools", "reason",
//                                                   "requested_by"}; 201
//   GET    /v1/mcp/requests/{id}
//   POST   /v1/mcp/requests/{id}                    body {"decision": "approve"|"reject",
//                                                   "reviewer", "note"}; 409 when not pending
//   GET    /v1/mcp/status                           the manager's servers (phase, tools, drift)
//   POST   /v1/mcp/servers/{name}/tools/{tool}/approve-drift
//
// Errors: 400 bad body, 404 unknown server/grant/request, 409 already reviewed. Changes to
// servers and grants apply to the running manager at its next restart; grants apply per call
// through the agent resolver.
#pragma once

#include "gateway/router.h"
#include "runtime/runtime.h"

namespace clawtools {

// `runtime` must outlive the router.
void AddAdminMcpRoutes(Router& router, const Runtime& runtime);

}  // namespace clawtools
