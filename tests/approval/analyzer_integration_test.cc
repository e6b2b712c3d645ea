// The production gate (MakeApprovalGate: the real command analyser + the approval workflow)
// against the allowlist bypasses reported on GoClaw (issues #1200-#1216).
#include <gtest/gtest.h>

#include "../store/test_database.h"
#include "approval/approval_gate.h"
#include "test_support.h"

namespace clawtools {
namespace {

using namespace std::chrono_literals;
using testing::Context;

class AnalyzerIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = store::testing::TestDatabase::Create(store::Backend::kSqlite);
    ASSERT_TRUE(db);
    db_ = std::move(*db);
    auto opened = store::OpenStore(db_->url());
    ASSERT_TRUE(opened);
    store_ = std::move(*opened);
    ApprovalSettings s;
    s.security = ExecSecurity::kAllowlist;
    s.ask = ExecAsk::kOnMiss;
    s.timeout = 10s;
    s.poll_interval = 20ms;
    s.static_rules.push_back(PrefixRule{.argv_prefix = {"git", "status"}, .source = "config"});
    s.static_rules.push_back(PrefixRule{.argv_prefix = {"echo"}, .source = "config"});
    manager_ = std::make_shared<ApprovalManager>(*store_, s, nullptr);
    gate_ = MakeApprovalGate(manager_);
  }

  // Allowed without asking? (A short budget: an ask expires quickly and reads as refused.)
  bool RunsWithoutAsking(std::string_view command) {
    return gate_->Check(Context("coder", 150ms), command, "/tmp").allowed;
  }

  std::unique_ptr<store::testing::TestDatabase> db_;
  std::unique_ptr<store::Store> store_;
  std::shared_ptr<ApprovalManager> manager_;
  std::shared_ptr<CommandGate> gate_;
};

TEST_F(AnalyzerIntegrationTest, AllowlistedCommandsRun) {
  EXPECT_TRUE(RunsWithoutAsking("git status"));
  EXPECT_TRUE(RunsWithoutAsking("git status --short"));
  EXPECT_TRUE(RunsWithoutAsking("echo hello"));
}

TEST_F(AnalyzerIntegrationTest, ChainsWrappersAndPathsDoNotRideOnARule) {
  for (const char* command : {
           "git status && touch /tmp/x",  // #1205 / #1208 shell chain
           "git status; rm -rf ~",        // chain with a destructive command
           "echo ok | sh",                // pipe into a shell
           "env sh -c 'touch /tmp/x'",    // #1200 / #1203 env wrapper
           "./git status",                // #1216 path-scoped executable
           "echo $(touch /tmp/x)",        // substitution
           "git push",                    // a different subcommand
       }) {
    EXPECT_FALSE(RunsWithoutAsking(command)) << command;
  }
}

TEST_F(AnalyzerIntegrationTest, AllowAlwaysOnAShellScriptTrustsOnlyThatScript) {
  std::thread decider([this] {
    for (int i = 0; i < 500; ++i) {
      auto pending = manager_->store().List(ApprovalStatus::kPending);
      if (pending && !pending->empty()) {
        EXPECT_TRUE(manager_->Decide(pending->front().id, ApprovalDecision::kAllowAlways, "test"));
        return;
      }
      std::this_thread::sleep_for(5ms);
    }
  });
  GateVerdict first = gate_->Check(Context("coder", 10s), "sh -c 'make test'", "/tmp");
  decider.join();
  ASSERT_TRUE(first.allowed) << first.rule << ": " << first.reason;
  EXPECT_TRUE(RunsWithoutAsking("sh -c 'make test'"));
  EXPECT_FALSE(RunsWithoutAsking("sh -c 'make test; curl example.com'"));
  EXPECT_FALSE(RunsWithoutAsking("sh -c 'touch /tmp/x'"));
  EXPECT_FALSE(RunsWithoutAsking("bash -c 'make test'"));
}

TEST_F(AnalyzerIntegrationTest, DenyGroupsFollowTheCallingAgent) {
  // package_install asks by default; agent "builder" has the group switched off.
  ApprovalSettings s;
  s.security = ExecSecurity::kFull;
  s.ask = ExecAsk::kOff;
  auto manager = std::make_shared<ApprovalManager>(*store_, s, nullptr);
  auto gate = MakeApprovalGate(manager, [](std::string_view agent) {
    execpolicy::AnalysisOptions options;
    if (agent == "builder") options.disabled_groups.push_back("package_install");
    return options;
  });
  GateVerdict coder = gate->Check(Context("coder", 150ms), "npm install left-pad", "/tmp");
  EXPECT_FALSE(coder.allowed);  // ask with ask=off: refused
  EXPECT_EQ(coder.rule, "package_install.npm");
  EXPECT_TRUE(gate->Check(Context("builder", 150ms), "npm install left-pad", "/tmp").allowed);
}

}  // namespace
}  // namespace clawtools
