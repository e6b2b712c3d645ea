// Policy evaluation for 60 tools (the 28 native tools, 32 MCP tools, 6 aliases) under a
// config that uses every layer: profiles, allow lists at all four levels, a group allow list,
// deny and alsoAllow lists, a dynamic MCP group, globs, and a subagent depth.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "core/registry.h"
#include "core/tool.h"
#include "policy/policy_engine.h"

namespace clawtools {
namespace {

class NoopTool : public SimpleTool {
 public:
  explicit NoopTool(std::string name, std::string group = "")
      : SimpleTool(std::move(name), "", Json::object()), group_(std::move(group)) {}
  Result Execute(const CallContext&, const Json&) const override { return Result::Text(""); }
  const std::string& dynamic_group() const override { return group_; }

 private:
  std::string group_;
};

struct Fixture {
  Registry reg;
  std::unique_ptr<PolicyEngine> engine;

  Fixture() {
    for (const auto& n : *ToolGroups::Builtin("goclaw")) Add(n);
    for (int i = 0; i < 32; ++i) {
      std::string name = (i % 2 ? "mcp_github__tool" : "mcp_pg__tool") + std::to_string(i);
      if (!reg.Register(std::make_shared<NoopTool>(name, i % 2 ? "mcp:github" : "mcp:pg"))) {
        std::abort();
      }
    }
    for (auto [alias, canonical] :
         {std::pair{"bash", "exec"}, std::pair{"Bash", "exec"}, std::pair{"Read", "read_file"},
          std::pair{"Write", "write_file"}, std::pair{"Agent", "spawn"},
          std::pair{"WebFetch", "web_fetch"}}) {
      (void)reg.RegisterAlias(alias, canonical);
    }
    auto cfg = PolicyConfig::FromJson(Json::parse(R"({
      "tools": {"profile": "coding",
                "allow": ["group:fs", "group:runtime", "group:sessions", "group:memory",
                          "group:web", "mcp_*", "image"],
                "deny": ["process", "mcp_pg__tool4"],
                "alsoAllow": ["web_fetch"],
                "byProvider": {"anthropic": {"profile": "full",
                                             "allow": ["group:goclaw", "group:mcp:github", "mcp_pg_*"],
                                             "deny": ["canvas"]}}},
      "agents": {"defaults": {"subagents": {"maxSpawnDepth": 2}},
                 "list": [{"id": "coder",
                           "tools": {"allow": ["group:fs", "group:runtime", "group:sessions",
                                               "group:web", "bash", "mcp_github_*", "mcp_pg_*"],
                                     "deny": ["glob"], "alsoAllow": ["cron"],
                                     "byProvider": {"anthropic": {
                                         "allow": ["group:fs", "exec", "group:sessions", "web_search",
                                                   "group:mcp:github", "mcp_pg__tool0"],
                                         "deny": ["search"]}}}}]}})"),
                                      nullptr);
    if (!cfg) std::abort();
    engine = std::make_unique<PolicyEngine>(*cfg);
  }

  void Add(const std::string& name) {
    if (!reg.Register(std::make_shared<NoopTool>(name))) std::abort();
  }

  static PolicyQuery Query(int variant) {
    return {.agent_id = "coder",
            .provider = "anthropic",
            .subagent_depth = 1,
            .group_allow = {"group:fs", "group:sessions", "exec", "web_search", "mcp_*",
                            "v" + std::to_string(variant)}};
  }
};

// Every iteration misses the cache: the query's group allow list differs each time. Includes
// reading the registry, fingerprinting it, the pipeline, and the cache insertion.
void BM_PolicyCold(benchmark::State& state) {
  Fixture f;
  std::vector<PolicyQuery> queries;
  for (int i = 0; i < 100000; ++i) queries.push_back(Fixture::Query(i));
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.engine->Allowed(f.reg, queries[i++ % queries.size()]));
  }
  state.counters["tools"] = static_cast<double>(f.reg.size());
}
BENCHMARK(BM_PolicyCold);

void BM_PolicyCached(benchmark::State& state) {
  Fixture f;
  const PolicyQuery q = Fixture::Query(0);
  if (f.engine->Allowed(f.reg, q)->empty()) std::abort();
  for (auto _ : state) benchmark::DoNotOptimize(f.engine->Allowed(f.reg, q));
}
BENCHMARK(BM_PolicyCached);

// What PolicyFilter pays per call.
void BM_PolicyIsAllowedCached(benchmark::State& state) {
  Fixture f;
  const PolicyQuery q = Fixture::Query(0);
  for (auto _ : state) benchmark::DoNotOptimize(f.engine->IsAllowed(f.reg, q, "bash"));
}
BENCHMARK(BM_PolicyIsAllowedCached);

void BM_PolicyExplainCached(benchmark::State& state) {
  Fixture f;
  const PolicyQuery q = Fixture::Query(0);
  for (auto _ : state) benchmark::DoNotOptimize(f.engine->Explain(f.reg, q));
}
BENCHMARK(BM_PolicyExplainCached);

}  // namespace
}  // namespace clawtools
