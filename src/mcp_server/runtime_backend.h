// The tools a Runtime offers one MCP caller (agent, user): the policy-filtered registry, each
// call through Runtime::Call (policy, rate limit, schema validation, scrubbing, call log), so
// an MCP client gets exactly what an agent loop would and nothing more.
#pragma once

#include <string>

#include "mcp/server_session.h"
#include "mcp/access_resolver.h"
#include "runtime/runtime.h"

namespace clawtools::mcp {

// Who is calling through this MCP connection; fixed for the connection's lifetime.
struct McpCaller {
  std::string agent_id;
  std::string user_id;
  std::string provider;     // byProvider policy key; empty: none
  std::string session_key;  // rate-limit and sandbox key ("mcp:<session id>" over HTTP)
  std::string channel = "mcp";
};

class RuntimeToolBackend final : public ToolBackend {
 public:
  // `runtime` (and `resolver`, when given) must outlive the backend. With a resolver, the
  // caller's (agent, user) registry comes from it: the runtime's tools plus the MCP servers the
  // store grants that pair.
  RuntimeToolBackend(const Runtime& runtime, McpCaller caller, AgentMcpResolver* resolver = nullptr)
      : runtime_(runtime), caller_(std::move(caller)), resolver_(resolver) {}

  // inputSchema is the tool's own schema, untouched: MCP clients take JSON Schema 2020-12
  // ($schema, $defs, $ref), unlike the provider formats that must inline them away.
  Json ListTools() const override;
  // kNotFound for a name the registry does not know; a tool the policy hides is still called
  // so the pipeline refuses it with its reason (and logs the attempt).
  Expected<Result> CallTool(const std::string& name, const Json& arguments,
                            std::stop_token stop) const override;

 private:
  std::shared_ptr<const Registry> Resolve() const;

  const Runtime& runtime_;
  McpCaller caller_;
  AgentMcpResolver* resolver_;
};

}  // namespace clawtools::mcp
