#include "approval/approval_manager.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "../store/test_database.h"
#include "test_support.h"

namespace clawtools {
namespace {

using namespace std::chrono_literals;
using execpolicy::Decision;
using store::testing::BackendTest;
using testing::Analysis;
using Clock = std::chrono::steady_clock;

const char* VerdictName(CheckVerdict v) {
  return v == CheckVerdict::kAllow ? "allow" : v == CheckVerdict::kDeny ? "deny" : "ask";
}

class ApprovalManagerTest : public BackendTest {
 protected:
  std::shared_ptr<ApprovalManager> Manager(ApprovalSettings settings) {
    return std::make_shared<ApprovalManager>(*store_, std::move(settings), bus_);
  }
  static ApprovalSettings Settings(ExecSecurity security, ExecAsk ask) {
    ApprovalSettings s;
    s.security = security;
    s.ask = ask;
    s.static_rules.push_back(PrefixRule{.argv_prefix = {"git", "status"}, .source = "config"});
    s.poll_interval = 20ms;
    return s;
  }
  static ApprovalSubject Subject(std::string agent = "coder", std::string cwd = "/tmp",
                                 std::string command = "cmd") {
    return ApprovalSubject{std::move(agent), "u1", "s1", std::move(command), std::move(cwd)};
  }
  // A pending request for `argv`, for tests of deciding and waiting.
  ApprovalRequest Pending(ApprovalManager& m, std::vector<std::string> argv,
                          std::string cwd = "/tmp") {
    auto a = m.Request(Subject("coder", cwd), Analysis({argv}), {CheckVerdict::kAsk, "r", "why"});
    EXPECT_TRUE(a) << a.error().log_message();
    return a.value_or(ApprovalRequest{});
  }

  std::shared_ptr<EventBus> bus_ = std::make_shared<EventBus>();
};

// GoClaw's table (exec_approval.go), with our two changes: the analyser's verdict comes first,
// and "allowlisted" means every parsed command matches an argv-prefix rule.
TEST_P(ApprovalManagerTest, EveryModeCombination) {
  struct Case {
    ExecSecurity security;
    ExecAsk ask;
    CheckVerdict listed, unlisted, analysis_ask;
  };
  using enum CheckVerdict;
  const Case cases[] = {
      {ExecSecurity::kDeny, ExecAsk::kOff, kDeny, kDeny, kDeny},
      {ExecSecurity::kDeny, ExecAsk::kOnMiss, kDeny, kDeny, kDeny},
      {ExecSecurity::kDeny, ExecAsk::kAlways, kDeny, kDeny, kDeny},
      {ExecSecurity::kAllowlist, ExecAsk::kOff, kAllow, kDeny, kDeny},
      {ExecSecurity::kAllowlist, ExecAsk::kOnMiss, kAllow, kAsk, kAsk},
      {ExecSecurity::kAllowlist, ExecAsk::kAlways, kAsk, kAsk, kAsk},
      {ExecSecurity::kFull, ExecAsk::kOff, kAllow, kAllow, kDeny},
      {ExecSecurity::kFull, ExecAsk::kOnMiss, kAllow, kAsk, kAsk},
      {ExecSecurity::kFull, ExecAsk::kAlways, kAsk, kAsk, kAsk},
  };
  for (const Case& c : cases) {
    auto m = Manager(Settings(c.security, c.ask));
    SCOPED_TRACE(::testing::Message() << "security=" << static_cast<int>(c.security)
                                      << " ask=" << static_cast<int>(c.ask));
    auto listed = m->Check(Subject(), Analysis({{"git", "status", "-s"}}));
    auto unlisted = m->Check(Subject(), Analysis({{"git", "push"}}));
    auto asked = m->Check(Subject(),
                          Analysis({{"git", "status"}}, Decision::kAsk, "parse.dynamic", "unsure"));
    auto denied =
        m->Check(Subject(), Analysis({{"git", "status"}}, Decision::kDeny, "destructive.rm", "no"));
    ASSERT_TRUE(listed && unlisted && asked && denied);
    EXPECT_EQ(VerdictName(listed->verdict), VerdictName(c.listed));
    EXPECT_EQ(VerdictName(unlisted->verdict), VerdictName(c.unlisted));
    EXPECT_EQ(VerdictName(asked->verdict), VerdictName(c.analysis_ask));
    EXPECT_EQ(VerdictName(denied->verdict), "deny");
    EXPECT_EQ(denied->rule, "destructive.rm");  // a deny rule is never overridden
  }
}

TEST_P(ApprovalManagerTest, EveryCommandOfAChainMustBeAllowlisted) {
  auto m = Manager(Settings(ExecSecurity::kAllowlist, ExecAsk::kOff));
  auto chained = m->Check(Subject(), Analysis({{"git", "status"}, {"touch", "/tmp/x"}}));
  ASSERT_TRUE(chained);
  EXPECT_EQ(chained->verdict, CheckVerdict::kDeny);
  EXPECT_NE(chained->reason.find("touch /tmp/x"), std::string::npos) << chained->reason;
  auto single = m->Check(Subject(), Analysis({{"git", "status"}}));
  ASSERT_TRUE(single);
  EXPECT_EQ(single->verdict, CheckVerdict::kAllow);
  EXPECT_EQ(single->rule, "allowlist:config:git status");
}

TEST_P(ApprovalManagerTest, RunTimeValuesAndEmptyAnalysesNeverMatch) {
  auto m = Manager(Settings(ExecSecurity::kAllowlist, ExecAsk::kOnMiss));
  auto dynamic = Analysis({{"git", "status", "$X"}});
  dynamic.commands[0].dynamic = true;
  EXPECT_EQ(m->Check(Subject(), dynamic)->verdict, CheckVerdict::kAsk);
  EXPECT_EQ(m->Check(Subject(), Analysis({}))->verdict, CheckVerdict::kAsk);
}

TEST_P(ApprovalManagerTest, AllowAlwaysIsBoundToTheCommandCwdAndAgent) {
  auto m = Manager(Settings(ExecSecurity::kAllowlist, ExecAsk::kOnMiss));
  std::string dir_a = std::filesystem::temp_directory_path().string();
  ApprovalRequest a = Pending(*m, {"make", "test"}, dir_a + "/");
  EXPECT_EQ(a.cwd, NormalizeCwd(dir_a));
  auto decided = m->Decide(a.id, ApprovalDecision::kAllowAlways, "test");
  ASSERT_TRUE(decided) << decided.error().log_message();
  EXPECT_EQ(decided->status, ApprovalStatus::kAllowed);

  auto same = m->Check(Subject("coder", dir_a), Analysis({{"make", "test"}}));
  EXPECT_EQ(same->verdict, CheckVerdict::kAllow);
  EXPECT_TRUE(same->rule.starts_with("allowlist:")) << same->rule;
  EXPECT_EQ(m->Check(Subject("coder", "/"), Analysis({{"make", "test"}}))->verdict,
            CheckVerdict::kAsk);
  EXPECT_EQ(m->Check(Subject("other", dir_a), Analysis({{"make", "test"}}))->verdict,
            CheckVerdict::kAsk);
  EXPECT_EQ(m->Check(Subject("coder", dir_a), Analysis({{"make", "install"}}))->verdict,
            CheckVerdict::kAsk);
  // Under ask=always only the exact command line is granted, not a longer one.
  auto always = Manager(Settings(ExecSecurity::kFull, ExecAsk::kAlways));
  EXPECT_EQ(always->Check(Subject("coder", dir_a), Analysis({{"make", "test"}}))->verdict,
            CheckVerdict::kAllow);
  EXPECT_EQ(always->Check(Subject("coder", dir_a), Analysis({{"make", "test", "-j9"}}))->verdict,
            CheckVerdict::kAsk);

  auto rules = m->store().Rules("coder");
  ASSERT_TRUE(rules);
  ASSERT_EQ(rules->size(), 1u);
  EXPECT_EQ(rules->front().argv_prefix, (std::vector<std::string>{"make", "test"}));
  EXPECT_EQ(rules->front().cwd, NormalizeCwd(dir_a));
  EXPECT_EQ(rules->front().source, "approval:" + a.id);
}

TEST_P(ApprovalManagerTest, AllowAlwaysRefusesBareInterpretersButAllowOnceWorks) {
  auto m = Manager(Settings(ExecSecurity::kFull, ExecAsk::kAlways));
  ApprovalRequest a = Pending(*m, {"python3"});
  auto always = m->Decide(a.id, ApprovalDecision::kAllowAlways, "test");
  ASSERT_FALSE(always);
  EXPECT_EQ(always.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(m->store().Get(a.id).value()->status, ApprovalStatus::kPending);
  EXPECT_TRUE(m->store().Rules(std::nullopt)->empty());
  auto once = m->Decide(a.id, ApprovalDecision::kAllowOnce, "test");
  ASSERT_TRUE(once);
  EXPECT_EQ(once->decision, ApprovalDecision::kAllowOnce);
}

TEST_P(ApprovalManagerTest, DecisionsAreFinalAndIdsMustExist) {
  auto m = Manager(Settings(ExecSecurity::kFull, ExecAsk::kAlways));
  ApprovalRequest a = Pending(*m, {"ls"});
  ASSERT_TRUE(m->Decide(a.id, ApprovalDecision::kDeny, "test"));
  auto again = m->Decide(a.id, ApprovalDecision::kAllowOnce, "test");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::kAlreadyExists);
  auto unknown = m->Decide("apr_nope", ApprovalDecision::kDeny, "test");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::kNotFound);
}

TEST_P(ApprovalManagerTest, ConcurrentDecisionsHaveOneWinner) {
  auto m = Manager(Settings(ExecSecurity::kFull, ExecAsk::kAlways));
  ApprovalRequest a = Pending(*m, {"ls"});
  std::atomic<int> wins{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      if (m->Decide(a.id, i % 2 ? ApprovalDecision::kDeny : ApprovalDecision::kAllowOnce, "t"))
        ++wins;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wins.load(), 1);
}

TEST_P(ApprovalManagerTest, TimeoutMeansDenied) {
  auto settings = Settings(ExecSecurity::kFull, ExecAsk::kAlways);
  settings.timeout = 200ms;
  auto m = Manager(settings);
  ApprovalRequest a = Pending(*m, {"ls"});
  auto start = Clock::now();
  auto final = m->Wait(a.id, Clock::now() + 30s);
  ASSERT_TRUE(final);
  EXPECT_EQ(final->status, ApprovalStatus::kExpired);
  EXPECT_GE(Clock::now() - start, 150ms);
  EXPECT_LT(Clock::now() - start, 5s);
  auto late = m->Decide(a.id, ApprovalDecision::kAllowOnce, "test");
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, ErrorCode::kAlreadyExists);
}

TEST_P(ApprovalManagerTest, OverdueRequestsReadAsExpiredWithoutAWaiter) {
  auto settings = Settings(ExecSecurity::kFull, ExecAsk::kAlways);
  settings.timeout = 1ms;
  auto m = Manager(settings);
  ApprovalRequest a = Pending(*m, {"ls"});
  std::this_thread::sleep_for(20ms);
  EXPECT_TRUE(m->store().List(ApprovalStatus::kPending)->empty());
  EXPECT_EQ(m->store().Get(a.id).value()->status, ApprovalStatus::kExpired);
  EXPECT_FALSE(m->Decide(a.id, ApprovalDecision::kAllowOnce, "test"));
}

TEST_P(ApprovalManagerTest, CallerDeadlineAndCancellationExpireTheRequest) {
  auto m = Manager(Settings(ExecSecurity::kFull, ExecAsk::kAlways));
  ApprovalRequest a = Pending(*m, {"ls"});
  auto final = m->Wait(a.id, Clock::now() + 50ms);
  ASSERT_TRUE(final);
  EXPECT_EQ(final->status, ApprovalStatus::kExpired);

  ApprovalRequest b = Pending(*m, {"ls"});
  std::stop_source stop;
  std::thread canceller([&] {
    std::this_thread::sleep_for(30ms);
    stop.request_stop();
  });
  auto start = Clock::now();
  auto cancelled = m->Wait(b.id, Clock::now() + 30s, stop.get_token());
  canceller.join();
  ASSERT_TRUE(cancelled);
  EXPECT_EQ(cancelled->status, ApprovalStatus::kExpired);
  EXPECT_LT(Clock::now() - start, 5s);
}

TEST_P(ApprovalManagerTest, LocalDecisionWakesTheWaiterAtOnce) {
  auto settings = Settings(ExecSecurity::kFull, ExecAsk::kAlways);
  settings.poll_interval = 60s;  // only the in-process wake-up can be fast
  auto m = Manager(settings);
  ApprovalRequest a = Pending(*m, {"ls"});
  std::thread decider([&] {
    std::this_thread::sleep_for(30ms);
    EXPECT_TRUE(m->Decide(a.id, ApprovalDecision::kAllowOnce, "test"));
  });
  auto start = Clock::now();
  auto final = m->Wait(a.id, Clock::now() + 30s);
  decider.join();
  ASSERT_TRUE(final);
  EXPECT_EQ(final->status, ApprovalStatus::kAllowed);
  EXPECT_LT(Clock::now() - start, 10s);
}

TEST_P(ApprovalManagerTest, DecisionFromAnotherStoreHandleIsSeenByPolling) {
  auto m = Manager(Settings(ExecSecurity::kFull, ExecAsk::kAlways));
  ApprovalRequest a = Pending(*m, {"ls"});
  auto other = OpenAnother();  // as the CLI or a second gateway would
  ASSERT_TRUE(other);
  std::thread decider([&] {
    std::this_thread::sleep_for(50ms);
    auto d = ApprovalStore(*other).Decide(a.id, ApprovalDecision::kDeny, "cli");
    EXPECT_TRUE(d) << d.error().log_message();
  });
  auto final = m->Wait(a.id, Clock::now() + 30s);
  decider.join();
  ASSERT_TRUE(final);
  EXPECT_EQ(final->status, ApprovalStatus::kDenied);
  EXPECT_EQ(final->decided_by, "cli");
}

TEST_P(ApprovalManagerTest, PersistedRulesSurviveReopeningTheStore) {
  {
    auto m = Manager(Settings(ExecSecurity::kAllowlist, ExecAsk::kOnMiss));
    ApprovalRequest a = Pending(*m, {"cargo", "build"});
    ASSERT_TRUE(m->Decide(a.id, ApprovalDecision::kAllowAlways, "test"));
  }
  store_.reset();
  auto reopened = store::OpenStore(url());
  ASSERT_TRUE(reopened) << reopened.error().log_message();
  ApprovalManager m(**reopened, Settings(ExecSecurity::kAllowlist, ExecAsk::kOff), nullptr);
  auto r = m.Check(Subject("coder", "/tmp"), Analysis({{"cargo", "build"}}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->verdict, CheckVerdict::kAllow);
  store_ = std::move(*reopened);
}

TEST_P(ApprovalManagerTest, PublishesRequestedThenDecided) {
  auto sub = bus_->Subscribe();
  auto m = Manager(Settings(ExecSecurity::kFull, ExecAsk::kAlways));
  ApprovalRequest a = Pending(*m, {"ls", "-la"});
  ASSERT_TRUE(m->Decide(a.id, ApprovalDecision::kAllowOnce, "test"));
  ASSERT_TRUE(m->Wait(a.id, Clock::now() + 5s));
  auto events = sub->Take();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].type, "approval.requested");
  EXPECT_EQ(events[0].data["id"], a.id);
  EXPECT_EQ(events[0].data["canonical"], "ls -la");
  EXPECT_EQ(events[0].data["status"], "pending");
  EXPECT_EQ(events[1].type, "approval.decided");
  EXPECT_EQ(events[1].data["decision"], "allow-once");
}

TEST_P(ApprovalManagerTest, ListFiltersByStatusNewestFirst) {
  auto m = Manager(Settings(ExecSecurity::kFull, ExecAsk::kAlways));
  ApprovalRequest a = Pending(*m, {"a"});
  std::this_thread::sleep_for(2ms);
  ApprovalRequest b = Pending(*m, {"b"});
  ASSERT_TRUE(m->Decide(a.id, ApprovalDecision::kDeny, "t"));
  auto pending = m->store().List(ApprovalStatus::kPending);
  ASSERT_TRUE(pending);
  ASSERT_EQ(pending->size(), 1u);
  EXPECT_EQ(pending->front().id, b.id);
  auto all = m->store().List(std::nullopt);
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ(all->front().id, b.id);
  EXPECT_NE(a.id, b.id);
  EXPECT_EQ(a.id.size(), 36u);
}

TEST_P(ApprovalManagerTest, RulesCanBeListedAndRemoved) {
  auto m = Manager(Settings(ExecSecurity::kAllowlist, ExecAsk::kOff));
  auto added = m->store().AddRule(
      PrefixRule{.agent_id = "coder", .argv_prefix = {"npm", "test"}, .source = "cli"});
  ASSERT_TRUE(added);
  EXPECT_GT(added->id, 0);
  EXPECT_FALSE(m->store().AddRule(
      PrefixRule{.agent_id = "coder", .argv_prefix = {"sh", "-c"}, .source = "cli"}));
  EXPECT_EQ(m->Check(Subject(), Analysis({{"npm", "test"}}))->verdict, CheckVerdict::kAllow);
  ASSERT_TRUE(m->store().RemoveRule(added->id));
  EXPECT_EQ(m->Check(Subject(), Analysis({{"npm", "test"}}))->verdict, CheckVerdict::kDeny);
  EXPECT_EQ(m->store().RemoveRule(added->id).error().code, ErrorCode::kNotFound);
}

TEST_P(ApprovalManagerTest, CredentialsAreRedactedFromEventsButBindingUsesTheRealCommand) {
  auto sub = bus_->Subscribe();
  auto redact = [](std::string_view s) {
    std::string out(s);
    for (size_t at; (at = out.find("hunter2")) != std::string::npos;)
      out.replace(at, 7, "[REDACTED]");
    return out;
  };
  ApprovalManager m(*store_, Settings(ExecSecurity::kFull, ExecAsk::kAlways), bus_, redact);
  auto a = m.Request(Subject("coder", "/tmp", "curl -u me:hunter2 example.com"),
                     Analysis({{"curl", "-u", "me:hunter2", "example.com"}}),
                     {CheckVerdict::kAsk, "r", "why"});
  ASSERT_TRUE(a);
  auto events = sub->Take();
  ASSERT_EQ(events.size(), 1u);
  std::string shown = events[0].data.dump();
  EXPECT_EQ(shown.find("hunter2"), std::string::npos) << shown;
  EXPECT_NE(shown.find("[REDACTED]"), std::string::npos) << shown;
  EXPECT_EQ(m.store().Get(a->id).value()->argv[0][2], "me:hunter2");  // stored as run
  ASSERT_TRUE(m.Decide(a->id, ApprovalDecision::kAllowAlways, "t"));
  auto rules = m.store().Rules("coder");
  ASSERT_EQ(rules->size(), 1u);
  EXPECT_EQ(m.ToJson(rules->front()).dump().find("hunter2"), std::string::npos);
}

CLAWTOOLS_INSTANTIATE_BACKENDS(ApprovalManagerTest);

TEST(ApprovalSettings, FromConfig) {
  auto config =
      Config::Parse(R"({"tools": {"execApproval": {"security": "allowlist", "ask": "on-miss",
      "allowlist": ["git status", "npm run 'build:prod'"], "timeout_sec": 30}}})");
  ASSERT_TRUE(config) << config.error().log_message();
  auto s = ApprovalSettingsFromConfig(*config);
  ASSERT_TRUE(s) << s.error().log_message();
  EXPECT_EQ(s->security, ExecSecurity::kAllowlist);
  EXPECT_EQ(s->ask, ExecAsk::kOnMiss);
  EXPECT_EQ(s->timeout, 30s);
  ASSERT_EQ(s->static_rules.size(), 2u);
  EXPECT_EQ(s->static_rules[1].argv_prefix, (std::vector<std::string>{"npm", "run", "build:prod"}));

  auto defaults = ApprovalSettingsFromConfig(Config());
  ASSERT_TRUE(defaults);
  EXPECT_EQ(defaults->security, ExecSecurity::kFull);
  EXPECT_EQ(defaults->ask, ExecAsk::kOff);
  EXPECT_EQ(defaults->timeout, 2min);
}

TEST(ApprovalSettings, RefusesUnsafeOrGlobPatterns) {
  for (const char* pattern : {"bash", "sh -c", "python3", "git*", "env"}) {
    auto config = Config::Parse(std::string(R"({"tools": {"execApproval": {"allowlist": [")") +
                                pattern + "\"]}}}");
    ASSERT_TRUE(config) << pattern;
    auto s = ApprovalSettingsFromConfig(*config);
    ASSERT_FALSE(s) << pattern;
    EXPECT_NE(s.error().for_model.find("allowlist[0]"), std::string::npos) << s.error().for_model;
  }
}

TEST(NormalizeCwd, AbsoluteNoTrailingSlash) {
  EXPECT_EQ(NormalizeCwd("/"), "/");
  EXPECT_EQ(NormalizeCwd("/nonexistent-dir/x/../y/"), "/nonexistent-dir/y");
}

}  // namespace
}  // namespace clawtools
