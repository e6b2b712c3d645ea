#include "core/rate_limit_filter.h"

namespace clawtools {
namespace {

std::string KeyFor(RateScope scope, const CallContext& ctx) {
  auto or_anon = [](const std::string& s) { return s.empty() ? std::string("-") : s; };
  switch (scope) {
    case RateScope::kSession: return or_anon(ctx.session_key());
    case RateScope::kAgent: return or_anon(ctx.agent_id());
    case RateScope::kUser: return or_anon(ctx.user_id());
    case RateScope::kTool: return ctx.tool();
    case RateScope::kAgentTool: return or_anon(ctx.agent_id()) + '\x1f' + ctx.tool();
    case RateScope::kUserTool: return or_anon(ctx.user_id()) + '\x1f' + ctx.tool();
  }
  return "-";
}

}  // namespace

std::optional<RateScope> ParseRateScope(std::string_view s) {
  if (s == "session") return RateScope::kSession;
  if (s == "agent") return RateScope::kAgent;
  if (s == "user") return RateScope::kUser;
  if (s == "tool") return RateScope::kTool;
  if (s == "agent_tool") return RateScope::kAgentTool;
  if (s == "user_tool") return RateScope::kUserTool;
  return std::nullopt;
}

const char* RateScopeName(RateScope scope) {
  switch (scope) {
    case RateScope::kSession: return "session";
    case RateScope::kAgent: return "agent";
    case RateScope::kUser: return "user";
    case RateScope::kTool: return "tool";
    case RateScope::kAgentTool: return "agent_tool";
    case RateScope::kUserTool: return "user_tool";
  }
  return "session";
}

RateLimitFilter::RateLimitFilter(std::vector<RateRule> rules) {
  for (auto& r : rules) {
    if (r.limit.per_second <= 0) continue;
    entries_.push_back({r, std::make_unique<RateLimiter>(r.limit)});
  }
}

std::optional<Result> RateLimitFilter::OnRequest(const CallState& call) {
  for (auto& e : entries_) {
    RateDecision d = e.limiter->Allow(KeyFor(e.rule.scope, call.ctx));
    if (!d.allowed) {
      return Result::Fail("tool rate limit exceeded for this " +
                              std::string(RateScopeName(e.rule.scope)) + "; retry in " +
                              std::to_string(d.retry_after.count()) + " ms",
                          ErrorCode::kRateLimited);
    }
  }
  return std::nullopt;
}

}  // namespace clawtools
