#include "mcp_server/runtime_backend.h"

#include "policy/policy_engine.h"

namespace clawtools::mcp {

// The pair's registry as the runtime resolves it (custom tools and granted MCP servers); an
// explicit resolver (a test harness with its own store view) is layered on top.
std::shared_ptr<const Registry> RuntimeToolBackend::Resolve() const {
  auto base = runtime_.RegistryFor(caller_.agent_id, caller_.user_id);
  if (!resolver_ || caller_.agent_id.empty()) return base;
  return resolver_->RegistryFor(caller_.agent_id, caller_.user_id, std::move(base));
}

Json RuntimeToolBackend::ListTools() const {
  Json out = Json::array();
  auto reg = Resolve();
  PolicyQuery q{caller_.agent_id, caller_.provider, 0, {}};
  auto allowed = runtime_.policy().Allowed(*reg, q);
  for (const auto& name : *allowed) {
    auto tool = reg->Get(name);
    if (!tool) continue;
    Json schema = tool->parameters().is_object() ? tool->parameters() : Json::object();
    if (!schema.contains("type")) schema["type"] = "object";
    out.push_back({{"name", tool->name()},
                   {"description", tool->description()},
                   {"inputSchema", std::move(schema)}});
  }
  return out;
}

Expected<Result> RuntimeToolBackend::CallTool(const std::string& name, const Json& arguments,
                                              std::stop_token stop) const {
  auto reg = Resolve();
  if (reg->Canonical(name).empty()) {
    return Fail(ErrorCode::kNotFound, "Unknown tool: " + name);
  }
  CallRequest req;
  req.tool = name;
  req.args = arguments;
  req.agent_id = caller_.agent_id;
  req.user_id = caller_.user_id;
  req.provider = caller_.provider;
  req.session_key = caller_.session_key;
  req.channel = caller_.channel;
  req.cancel = std::move(stop);
  // What Runtime::Call does, on the resolved registry (a clone shares the filter chain).
  return reg->Execute(req).result;
}

}  // namespace clawtools::mcp
