// Registry dispatch overhead and rate limiter throughput.
//
// Dispatch is measured for a no-op tool through the full production chain (policy filter,
// rate limit filter with a generous limit, schema validation, scrub filter on a short result),
// next to a bare registry (no filters) as the in-run baseline.
#include <benchmark/benchmark.h>

#include "core/rate_limit_filter.h"
#include "core/rate_limiter.h"
#include "core/registry.h"

#include <mutex>
#include "core/scrub_filter.h"
#include "policy/policy_engine.h"
#include "policy/policy_filter.h"

namespace clawtools {
namespace {

class NoopTool : public SimpleTool {
 public:
  NoopTool()
      : SimpleTool("noop", "does nothing",
                   {{"type", "object"}, {"properties", {{"x", {{"type", "integer"}}}}}}) {}
  Result Execute(const CallContext&, const Json&) const override { return Result::Text("ok"); }
};

struct Fixture {
  Registry bare;
  Registry full;
  std::shared_ptr<PolicyEngine> policy = std::make_shared<PolicyEngine>();
  std::shared_ptr<Scrubber> scrubber = std::make_shared<Scrubber>();
  Fixture() {
    (void)bare.Register(std::make_shared<NoopTool>());
    (void)full.Register(std::make_shared<NoopTool>());
    full.AddFilter(std::make_shared<PolicyFilter>(policy, &full));
    full.AddFilter(std::make_shared<RateLimitFilter>(
        std::vector<RateRule>{{RateScope::kSession, RateLimit{1e12, 1e12}}}));
    full.AddFilter(std::make_shared<ScrubFilter>(scrubber));
  }
};

Fixture& Shared() {
  static Fixture f;
  return f;
}

CallRequest NoopRequest(int thread) {
  CallRequest r;
  r.tool = "noop";
  r.args = {{"x", 1}};
  r.session_key = "session-" + std::to_string(thread);
  return r;
}

void BM_DispatchBare(benchmark::State& state) {
  auto& f = Shared();
  CallRequest r = NoopRequest(state.thread_index());
  for (auto _ : state) benchmark::DoNotOptimize(f.bare.Execute(r));
}
BENCHMARK(BM_DispatchBare)->Threads(1)->Threads(2)->UseRealTime();

void BM_DispatchFullPipeline(benchmark::State& state) {
  auto& f = Shared();
  CallRequest r = NoopRequest(state.thread_index());
  for (auto _ : state) benchmark::DoNotOptimize(f.full.Execute(r));
}
BENCHMARK(BM_DispatchFullPipeline)->Threads(1)->Threads(2)->UseRealTime();

// One filter at a time, to see where the pipeline's time goes.
void BM_DispatchOneFilter(benchmark::State& state) {
  auto& f = Shared();
  static Registry policy_only, rate_only, scrub_only;
  static std::once_flag once;
  std::call_once(once, [&] {
    for (Registry* r : {&policy_only, &rate_only, &scrub_only}) (void)r->Register(std::make_shared<NoopTool>());
    policy_only.AddFilter(std::make_shared<PolicyFilter>(f.policy, &policy_only));
    rate_only.AddFilter(std::make_shared<RateLimitFilter>(
        std::vector<RateRule>{{RateScope::kSession, RateLimit{1e12, 1e12}}}));
    scrub_only.AddFilter(std::make_shared<ScrubFilter>(f.scrubber));
  });
  Registry* regs[] = {&policy_only, &rate_only, &scrub_only};
  Registry& reg = *regs[state.range(0)];
  CallRequest r = NoopRequest(state.thread_index());
  for (auto _ : state) benchmark::DoNotOptimize(reg.Execute(r));
  state.SetLabel(state.range(0) == 0 ? "policy" : state.range(0) == 1 ? "rate_limit" : "scrub");
}
BENCHMARK(BM_DispatchOneFilter)->Arg(0)->Arg(1)->Arg(2)->UseRealTime();

void BM_RateLimiterAllow(benchmark::State& state) {
  static RateLimiter rl(RateLimit{1e12, 1e12});
  std::vector<std::string> keys;
  for (int i = 0; i < 1024; ++i) keys.push_back("session-" + std::to_string(i));
  size_t i = state.thread_index();
  for (auto _ : state) benchmark::DoNotOptimize(rl.Allow(keys[i++ & 1023]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RateLimiterAllow)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace
}  // namespace clawtools

BENCHMARK_MAIN();
