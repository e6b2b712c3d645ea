#include "policy/policy_filter.h"

namespace clawtools {

PolicyFilter::PolicyFilter(std::shared_ptr<const PolicyEngine> engine, const Registry* reg)
    : engine_(std::move(engine)), reg_(reg) {}

std::optional<Result> PolicyFilter::OnRequest(const CallState& state) {
  const CallContext& ctx = state.ctx;
  const std::string& canonical = state.tool.name();
  const PolicyEngine::QueryView q{ctx.agent_id(), ctx.provider(), ctx.subagent_depth(),
                                  ctx.group_allow()};
  std::optional<std::string> why = engine_->Refusal(state.registry ? *state.registry : *reg_, q, canonical);
  if (!why) return std::nullopt;

  std::string subject = "tool \"" + state.request.tool + "\"";
  if (state.request.tool != canonical) subject += " (alias of \"" + canonical + "\")";
  return Result::Fail(subject + " is not allowed by policy (" + *why + ")",
                      ErrorCode::kPermissionDenied);
}

}  // namespace clawtools
