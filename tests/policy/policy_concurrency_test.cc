// Readers evaluate while writers reload the config, change dynamic groups and the registry.
// Meant to run under TSan; the assertions check no reader ever sees a torn state.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "policy/policy_engine.h"
#include "policy/policy_filter.h"
#include "policy_test_util.h"

namespace clawtools {
namespace {

using testing::MustParse;

TEST(PolicyConcurrencyTest, ReadersSeeOneConfigOrTheOther) {
  auto reg = testing::StandardRegistry();
  const PolicyConfig minimal = MustParse(R"({"tools":{"profile":"minimal"}})");
  const PolicyConfig messaging = MustParse(R"({"tools":{"profile":"messaging"}})");
  auto engine = std::make_shared<PolicyEngine>(minimal);
  reg->AddFilter(std::make_shared<PolicyFilter>(engine, reg.get()));

  const std::vector<std::string> a = {"session_status"};
  const std::vector<std::string> b = {"message", "session_status", "sessions_history",
                                      "sessions_list", "sessions_send"};
  const size_t base_tools = reg->size();
  std::atomic<bool> stop{false};
  std::atomic<int> torn{0}, evaluations{0};

  std::vector<std::thread> readers;
  for (int t = 0; t < 6; ++t) {
    readers.emplace_back([&, t] {
      while (!stop.load()) {
        PolicyQuery q{.agent_id = "agent" + std::to_string(t % 3),
                      .provider = t % 2 ? "openai" : "",
                      .group_allow = {}};
        auto allowed = engine->Allowed(*reg, q);
        if (*allowed != a && *allowed != b) ++torn;
        if (!engine->IsAllowed(*reg, q, "session_status")) ++torn;
        // Built lazily on first use: racing readers must agree.
        // (no allowed tool has an alias under either config)
        auto with_aliases = engine->AllowedWithAliases(*reg, q);
        if (*with_aliases != a && *with_aliases != b) ++torn;
        // tmp_tool comes and goes; every other tool is always explained.
        const size_t explained = engine->Explain(*reg, q).size();
        if (explained != base_tools && explained != base_tools + 1) ++torn;
        if (reg->Execute({.tool = "exec"}).result.error_code != ErrorCode::kPermissionDenied) {
          ++torn;
        }
        ++evaluations;
      }
    });
  }
  std::thread writer([&] {
    for (int i = 0; i < 300; ++i) {
      engine->SetConfig(i % 2 ? messaging : minimal);
      std::vector<std::string> warnings;
      ASSERT_TRUE(
          engine->SetAgentPolicy("agent1", ScopePolicy{.base = {.deny = {"cron"}}}, &warnings));
      std::this_thread::yield();
    }
  });
  std::thread registrar([&] {
    for (int i = 0; i < 300; ++i) {
      // A member of group:mcp:tmp, so dynamic groups change under the readers too.
      auto tool = std::make_shared<testing::GroupedTool>("tmp_tool", "mcp:tmp");
      ASSERT_TRUE(reg->Register(tool));
      reg->Unregister("tmp_tool");
    }
  });
  writer.join();
  registrar.join();
  while (evaluations.load() < 100) std::this_thread::yield();
  stop = true;
  for (auto& r : readers) r.join();
  EXPECT_EQ(torn.load(), 0);
}

}  // namespace
}  // namespace clawtools
