#include "approval/approval_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "../store/test_database.h"
#include "approval/terminal_approver.h"
#include "test_support.h"

namespace clawtools {
namespace {

using namespace std::chrono_literals;
using execpolicy::Decision;
using testing::Analysis;
using testing::Context;
using Clock = std::chrono::steady_clock;

// Answers after a delay, or never (nullopt once stopped).
class ScriptedApprover : public Approver {
 public:
  explicit ScriptedApprover(std::optional<ApprovalDecision> answer) : answer_(answer) {}
  std::optional<ApprovalDecision> Prompt(const ApprovalRequest& request,
                                         std::stop_token stop) override {
    seen_command = request.canonical;
    ++prompts;
    if (!answer_) {
      while (!stop.stop_requested()) std::this_thread::sleep_for(5ms);
      ++stopped;
      return std::nullopt;
    }
    std::this_thread::sleep_for(10ms);
    return answer_;
  }
  std::optional<ApprovalDecision> answer_;
  std::string seen_command;
  std::atomic<int> prompts{0};
  std::atomic<int> stopped{0};
};

class ApprovalGateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = store::testing::TestDatabase::Create(store::Backend::kSqlite);
    ASSERT_TRUE(db);
    db_ = std::move(*db);
    auto opened = store::OpenStore(db_->url());
    ASSERT_TRUE(opened);
    store_ = std::move(*opened);
  }

  std::shared_ptr<ApprovalManager> Manager(ExecSecurity security, ExecAsk ask,
                                           std::chrono::milliseconds timeout = 10s) {
    ApprovalSettings s;
    s.security = security;
    s.ask = ask;
    s.timeout = timeout;
    s.poll_interval = 20ms;
    return std::make_shared<ApprovalManager>(*store_, s, nullptr);
  }

  // The analyser stand-in: whatever analysis the test set last.
  CommandAnalyzer Analyzer() {
    return [this](std::string_view, std::string_view, std::span<const std::string>) {
      return analysis_;
    };
  }

  // Decides the first pending request once it appears.
  std::thread DecideWhenPending(ApprovalManager& m, ApprovalDecision d) {
    return std::thread([&m, d] {
      for (int i = 0; i < 500; ++i) {
        auto pending = m.store().List(ApprovalStatus::kPending);
        if (pending && !pending->empty()) {
          EXPECT_TRUE(m.Decide(pending->front().id, d, "test"));
          return;
        }
        std::this_thread::sleep_for(5ms);
      }
      ADD_FAILURE() << "no pending request appeared";
    });
  }

  std::unique_ptr<store::testing::TestDatabase> db_;
  std::unique_ptr<store::Store> store_;
  execpolicy::Analysis analysis_ = Analysis({{"git", "push"}});
};

TEST_F(ApprovalGateTest, AllowAndDenyWithoutAsking) {
  ApprovalGate open(Manager(ExecSecurity::kFull, ExecAsk::kOff), Analyzer());
  GateVerdict v = open.Check(Context("a"), "git push", "/tmp");
  EXPECT_TRUE(v.allowed);

  analysis_ = Analysis({{"rm", "-rf", "/"}}, Decision::kDeny, "destructive_fs.rm_root",
                       "deletes everything");
  v = open.Check(Context("a"), "rm -rf /", "/tmp");
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(v.rule, "destructive_fs.rm_root");
  EXPECT_EQ(v.reason, "deletes everything");

  ApprovalGate closed(Manager(ExecSecurity::kDeny, ExecAsk::kOff), Analyzer());
  analysis_ = Analysis({{"ls"}});
  EXPECT_FALSE(closed.Check(Context("a"), "ls", "/tmp").allowed);
}

TEST_F(ApprovalGateTest, AskThenAllowOnceRunsOnlyOnce) {
  auto m = Manager(ExecSecurity::kFull, ExecAsk::kOnMiss);
  ApprovalGate gate(m, Analyzer());
  std::thread decider = DecideWhenPending(*m, ApprovalDecision::kAllowOnce);
  GateVerdict v = gate.Check(Context("a"), "git push", "/tmp");
  decider.join();
  EXPECT_TRUE(v.allowed);
  EXPECT_EQ(v.rule, "approval:allow-once");
  // Once means once: the next run asks again (and here times out on the caller's deadline).
  GateVerdict again = gate.Check(Context("a", 100ms), "git push", "/tmp");
  EXPECT_FALSE(again.allowed);
  EXPECT_EQ(again.rule, "approval:expired");
}

TEST_F(ApprovalGateTest, AllowAlwaysThenNoMoreQuestions) {
  auto m = Manager(ExecSecurity::kAllowlist, ExecAsk::kOnMiss);
  ApprovalGate gate(m, Analyzer());
  std::thread decider = DecideWhenPending(*m, ApprovalDecision::kAllowAlways);
  EXPECT_EQ(gate.Check(Context("a"), "git push", "/tmp").rule, "approval:allow-always");
  decider.join();
  GateVerdict v = gate.Check(Context("a", 100ms), "git push", "/tmp");
  EXPECT_TRUE(v.allowed);
  EXPECT_TRUE(v.rule.starts_with("allowlist:")) << v.rule;
}

TEST_F(ApprovalGateTest, DenyAndTimeoutRefuse) {
  auto m = Manager(ExecSecurity::kFull, ExecAsk::kAlways, 200ms);
  ApprovalGate gate(m, Analyzer());
  std::thread decider = DecideWhenPending(*m, ApprovalDecision::kDeny);
  GateVerdict denied = gate.Check(Context("a"), "git push", "/tmp");
  decider.join();
  EXPECT_FALSE(denied.allowed);
  EXPECT_EQ(denied.rule, "approval:deny");
  EXPECT_NE(denied.reason.find("did not run"), std::string::npos);

  auto start = Clock::now();
  GateVerdict timed_out = gate.Check(Context("a"), "git push", "/tmp");
  EXPECT_FALSE(timed_out.allowed);
  EXPECT_EQ(timed_out.rule, "approval:expired");
  EXPECT_NE(timed_out.reason.find("timed out"), std::string::npos) << timed_out.reason;
  EXPECT_LT(Clock::now() - start, 5s);
}

TEST_F(ApprovalGateTest, CancellationEndsTheWait) {
  auto m = Manager(ExecSecurity::kFull, ExecAsk::kAlways);
  ApprovalGate gate(m, Analyzer());
  std::stop_source stop;
  std::thread canceller([&] {
    std::this_thread::sleep_for(50ms);
    stop.request_stop();
  });
  auto start = Clock::now();
  GateVerdict v = gate.Check(Context("a", 30s, stop.get_token()), "git push", "/tmp");
  canceller.join();
  EXPECT_FALSE(v.allowed);
  EXPECT_LT(Clock::now() - start, 5s);
}

TEST_F(ApprovalGateTest, ApproverHookDecides) {
  auto m = Manager(ExecSecurity::kFull, ExecAsk::kAlways);
  auto approver = std::make_shared<ScriptedApprover>(ApprovalDecision::kAllowOnce);
  ApprovalGate gate(m, Analyzer(), approver);
  GateVerdict v = gate.Check(Context("a"), "git push", "/tmp");
  EXPECT_TRUE(v.allowed);
  EXPECT_EQ(approver->seen_command, "git push");
  EXPECT_EQ(m->store().List(std::nullopt)->front().decided_by, "tty");
}

TEST_F(ApprovalGateTest, AlwaysOnABareInterpreterFallsBackToOnce) {
  auto m = Manager(ExecSecurity::kFull, ExecAsk::kAlways);
  analysis_ = Analysis({{"python3"}});
  ApprovalGate gate(m, Analyzer(),
                    std::make_shared<ScriptedApprover>(ApprovalDecision::kAllowAlways));
  GateVerdict v = gate.Check(Context("a"), "python3", "/tmp");
  EXPECT_TRUE(v.allowed);
  EXPECT_EQ(v.rule, "approval:allow-once");
  EXPECT_TRUE(m->store().Rules(std::nullopt)->empty());
}

TEST_F(ApprovalGateTest, DecisionElsewhereStopsThePrompt) {
  auto m = Manager(ExecSecurity::kFull, ExecAsk::kAlways);
  auto approver = std::make_shared<ScriptedApprover>(std::nullopt);
  ApprovalGate gate(m, Analyzer(), approver);
  std::thread decider = DecideWhenPending(*m, ApprovalDecision::kDeny);
  GateVerdict v = gate.Check(Context("a"), "git push", "/tmp");
  decider.join();
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(approver->prompts.load(), 1);
  EXPECT_EQ(approver->stopped.load(), 1);
}

TEST_F(ApprovalGateTest, StoreFailureFailsClosed) {
  auto m = Manager(ExecSecurity::kAllowlist, ExecAsk::kOnMiss);
  ASSERT_TRUE(store_->Exec("DROP TABLE exec_allowlist_rules"));
  GateVerdict v = ApprovalGate(m, Analyzer()).Check(Context("a"), "git push", "/tmp");
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(v.rule, "approval:error");
}

TEST(TerminalAnswer, Parses) {
  EXPECT_EQ(ParseTerminalAnswer("o\n"), ApprovalDecision::kAllowOnce);
  EXPECT_EQ(ParseTerminalAnswer(" Once "), ApprovalDecision::kAllowOnce);
  EXPECT_EQ(ParseTerminalAnswer("a"), ApprovalDecision::kAllowAlways);
  EXPECT_EQ(ParseTerminalAnswer("ALWAYS"), ApprovalDecision::kAllowAlways);
  EXPECT_EQ(ParseTerminalAnswer("d"), ApprovalDecision::kDeny);
  EXPECT_EQ(ParseTerminalAnswer("n"), ApprovalDecision::kDeny);
  EXPECT_EQ(ParseTerminalAnswer(""), std::nullopt);
  EXPECT_EQ(ParseTerminalAnswer("maybe"), std::nullopt);
}

}  // namespace
}  // namespace clawtools
