// Pipeline filter: rate limits calls before they run (seed section 9).
//
// Each rule limits one scope: the session key (GoClaw's behaviour), the agent, the user,
// the tool, or a combination. A call runs only when every rule allows it. Calls with an
// empty key share the anonymous bucket "-" of that scope: no entry point bypasses the
// limiter (GoClaw's HTTP invoke and subagent paths did).
#pragma once

#include <memory>
#include <vector>

#include "core/filter.h"
#include "core/rate_limiter.h"

namespace clawtools {

enum class RateScope { kSession, kAgent, kUser, kTool, kAgentTool, kUserTool };

std::optional<RateScope> ParseRateScope(std::string_view s);
const char* RateScopeName(RateScope scope);

struct RateRule {
  RateScope scope = RateScope::kSession;
  RateLimit limit;
};

class RateLimitFilter : public CallFilter {
 public:
  explicit RateLimitFilter(std::vector<RateRule> rules);

  std::string_view name() const override { return "rate_limit"; }
  std::optional<Result> OnRequest(const CallState& call) override;

 private:
  struct Entry {
    RateRule rule;
    std::unique_ptr<RateLimiter> limiter;
  };
  std::vector<Entry> entries_;
};

}  // namespace clawtools
