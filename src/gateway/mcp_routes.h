// clawtools as an MCP server over streamable HTTP (MCP 2025-03-26 .. 2025-11-25), on the
// gateway's router and therefore behind its bearer token like every other route:
//
//   POST   /mcp[?agent=ID&user=ID]  JSON-RPC: one message, or a batch (2025-03-26 and older
//                                   sessions). initialize creates a session and answers with
//                                   an `Mcp-Session-Id` header (256 random bits); the agent and
//                                   user given then are bound to the session. Later requests
//                                   need that header (400 without, 404 unknown or expired) and,
//                                   when sent, a supported `MCP-Protocol-Version` (400 else).
//                                   Answers application/json, or one SSE event when the client
//                                   accepts text/event-stream but not JSON; 202 for a POST of
//                                   only notifications/responses.
//   DELETE /mcp                     ends the session (200; 404 unknown).
//   GET    /mcp                     405: no server-initiated stream is offered.
//
// DNS rebinding (the spec's security warning): a request whose Host is not loopback or listed,
// or whose Origin (when present) is not a loopback origin or listed, gets 403 before anything
// else. tools/list and tools/call go through RuntimeToolBackend: the caller's policy-filtered
// tools, each call through the full pipeline.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "gateway/router.h"
#include "mcp/server_session.h"
#include "mcp/access_resolver.h"
#include "runtime/runtime.h"

namespace clawtools {

struct McpRoutesOptions {
  std::string path = "/mcp";
  // Exact Origin values allowed besides loopback ones (http(s)://localhost|127.0.0.1|[::1][:port]).
  std::vector<std::string> allowed_origins;
  // Host names (without port) allowed besides localhost, 127.0.0.1 and [::1]; "*" allows any
  // (only sensible behind a reverse proxy that checks Host itself).
  std::vector<std::string> allowed_hosts;
  size_t max_sessions = 1024;  // beyond it the least recently used session is dropped
  std::chrono::milliseconds idle_timeout{std::chrono::minutes(30)};
  mcp::ServerSessionOptions session;
  // Managed mode: per-(agent, user) registries with the MCP servers the store grants them.
  // Null: every session sees the runtime's registry. Must outlive the router.
  mcp::AgentMcpResolver* resolver = nullptr;
};

// `runtime` must outlive the router.
void AddMcpRoutes(Router& router, const Runtime& runtime, McpRoutesOptions options = {});

// Exposed for tests: the Host/Origin check (true = allowed).
bool McpHostAllowed(std::string_view host_header, const McpRoutesOptions& options);
bool McpOriginAllowed(std::string_view origin, const McpRoutesOptions& options);

}  // namespace clawtools
