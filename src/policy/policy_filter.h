// Enforces the tool policy at execution time, whatever path a call arrives by (model, CLI,
// HTTP API, MCP server): the list sent to the model is only a hint, this filter is the gate.
//
// Add it to the registry before any filter that does work for the tool. A call to a tool the
// policy removes for the call's (agent, provider, subagent depth, group allow) gets an error
// result with ErrorCode::kPermissionDenied naming the tool and the step that removed it:
//   tool "exec" is not allowed by policy (removed by tools.deny entry "group:runtime")
// The decision is the engine's cached one, so the gate costs about one cached evaluation.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "core/filter.h"
#include "core/registry.h"
#include "policy/policy_engine.h"

namespace clawtools {

class PolicyFilter : public CallFilter {
 public:
  // `reg` is the registry whose tool set the policy is evaluated against (the one this filter
  // is added to) and must outlive the filter. A tool it does not hold is refused (fail closed).
  PolicyFilter(std::shared_ptr<const PolicyEngine> engine, const Registry* reg);

  std::string_view name() const override { return "policy"; }
  std::optional<Result> OnRequest(const CallState& state) override;

 private:
  std::shared_ptr<const PolicyEngine> engine_;
  const Registry* reg_;
};

}  // namespace clawtools
