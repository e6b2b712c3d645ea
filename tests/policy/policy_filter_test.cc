#include "policy/policy_filter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "policy_test_util.h"

namespace clawtools {
namespace {

using testing::CountingTool;
using testing::MustParse;

class PolicyFilterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"exec", "read_file", "cron", "message"}) {
      auto tool = std::make_shared<CountingTool>(name);
      tools_[name] = tool;
      ASSERT_TRUE(reg_.Register(tool));
    }
    ASSERT_TRUE(reg_.RegisterAlias("bash", "exec"));
    reg_.AddFilter(std::make_shared<PolicyFilter>(engine_, &reg_));
  }

  CallOutcome Call(CallRequest req) { return reg_.Execute(req); }
  int Calls(const std::string& tool) { return tools_.at(tool)->calls.load(); }

  std::shared_ptr<PolicyEngine> engine_ =
      std::make_shared<PolicyEngine>(MustParse(R"({"tools":{"deny":["group:runtime"]},
        "agents":{"list":[{"id":"ops","tools":{"alsoAllow":["exec"]}},
                          {"id":"chat","tools":{"byProvider":{"openai":{"allow":["message"]}}}}]}})"));
  Registry reg_;
  std::map<std::string, std::shared_ptr<CountingTool>> tools_;
};

TEST_F(PolicyFilterTest, DeniedToolGetsAnErrorAndDoesNotRun) {
  auto out = Call({.tool = "exec"});
  EXPECT_TRUE(out.result.is_error);
  EXPECT_EQ(out.result.error_code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(out.result.for_llm,
            "tool \"exec\" is not allowed by policy (removed by tools.deny entry "
            "\"group:runtime\")");
  EXPECT_EQ(Calls("exec"), 0);
}

TEST_F(PolicyFilterTest, AliasIsRefusedLikeItsCanonical) {
  auto out = Call({.tool = "bash"});
  EXPECT_EQ(out.result.for_llm,
            "tool \"bash\" (alias of \"exec\") is not allowed by policy (removed by tools.deny "
            "entry \"group:runtime\")");
  EXPECT_EQ(Calls("exec"), 0);
}

TEST_F(PolicyFilterTest, AllowedToolRuns) {
  auto out = Call({.tool = "read_file"});
  EXPECT_FALSE(out.result.is_error) << out.result.for_llm;
  EXPECT_EQ(out.result.for_llm, "ran read_file");
  EXPECT_EQ(Calls("read_file"), 1);
}

TEST_F(PolicyFilterTest, UsesTheCallsAgentProviderDepthAndGroupAllow) {
  EXPECT_FALSE(Call({.tool = "bash", .agent_id = "ops"}).result.is_error);
  EXPECT_EQ(Calls("exec"), 1);

  auto chat = Call({.tool = "read_file", .agent_id = "chat", .provider = "openai"});
  EXPECT_EQ(chat.result.for_llm,
            "tool \"read_file\" is not allowed by policy (not matched by "
            "agents.list[1].tools.byProvider.openai.allow)");
  EXPECT_FALSE(
      Call({.tool = "read_file", .agent_id = "chat", .provider = "anthropic"}).result.is_error);

  auto sub = Call({.tool = "cron", .subagent_depth = 1});
  EXPECT_EQ(sub.result.for_llm,
            "tool \"cron\" is not allowed by policy (removed by subagent deny list entry "
            "\"cron\")");
  EXPECT_EQ(Calls("cron"), 0);

  auto topic = Call({.tool = "read_file", .group_allow = {"message"}});
  EXPECT_EQ(topic.result.for_llm,
            "tool \"read_file\" is not allowed by policy (not matched by request.group_allow)");
  EXPECT_FALSE(Call({.tool = "message", .group_allow = {"message"}}).result.is_error);
}

TEST_F(PolicyFilterTest, ReloadTakesEffectForTheNextCall) {
  EXPECT_TRUE(Call({.tool = "exec"}).result.is_error);
  engine_->SetConfig({});
  EXPECT_FALSE(Call({.tool = "exec"}).result.is_error);
  engine_->SetConfig(MustParse(R"({"tools":{"profile":"minimal"}})"));
  EXPECT_EQ(Call({.tool = "message"}).result.for_llm,
            "tool \"message\" is not allowed by policy (not in profile \"minimal\" set by "
            "tools.profile)");
}

TEST_F(PolicyFilterTest, ToolRegisteredAfterTheFilterIsStillGated) {
  auto late = std::make_shared<CountingTool>("process");
  ASSERT_TRUE(reg_.Register(late));
  EXPECT_EQ(Call({.tool = "process"}).result.error_code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(late->calls.load(), 0);
}

TEST(PolicyFilterStandaloneTest, CloneIsEvaluatedAgainstItsOwnToolSet) {
  // A clone shares its parent's filters; the filter must judge the registry running the call,
  // so a tool the clone gained is governed by the policy (allowed here, denied when listed).
  Registry reg;
  ASSERT_TRUE(reg.Register(std::make_shared<CountingTool>("exec")));
  auto engine = std::make_shared<PolicyEngine>();
  reg.AddFilter(std::make_shared<PolicyFilter>(engine, &reg));
  auto clone = reg.Clone();
  auto extra = std::make_shared<CountingTool>("extra");
  ASSERT_TRUE(clone->Register(extra));
  EXPECT_FALSE(clone->Execute({.tool = "extra"}).result.is_error);
  EXPECT_EQ(extra->calls.load(), 1);
  EXPECT_EQ(reg.Execute({.tool = "extra"}).result.error_code, ErrorCode::kNotFound);

  PolicyConfig cfg;
  cfg.global.base.deny = {"extra"};
  engine->SetConfig(cfg);
  EXPECT_EQ(clone->Execute({.tool = "extra"}).result.error_code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(extra->calls.load(), 1);
  EXPECT_FALSE(clone->Execute({.tool = "exec"}).result.is_error);
}

}  // namespace
}  // namespace clawtools
