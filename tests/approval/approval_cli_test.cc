// `clawtools approvals ...` from another process decides what a waiting call in this process
// asked for, through the shared database.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <future>
#include <random>

#include "approval/approval_manager.h"
#include "store/store.h"
#include "test_support.h"

namespace clawtools {
namespace {

using namespace std::chrono_literals;
using testing::Analysis;
using Clock = std::chrono::steady_clock;

struct RunResult {
  int exit_code = -1;
  std::string out;
};

class ApprovalCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    dir_ =
        std::filesystem::temp_directory_path() / ("clawtools-approval-cli-" + std::to_string(rd()));
    std::filesystem::create_directories(dir_);
    db_ = (dir_ / "clawtools.db").string();
    auto opened = store::OpenStore(db_);
    ASSERT_TRUE(opened) << opened.error().log_message();
    store_ = std::move(*opened);
    ApprovalSettings s;
    s.security = ExecSecurity::kAllowlist;
    s.ask = ExecAsk::kOnMiss;
    s.timeout = 30s;
    s.poll_interval = 50ms;
    manager_ = std::make_shared<ApprovalManager>(*store_, s, nullptr);
  }
  void TearDown() override {
    manager_.reset();
    store_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  RunResult Cli(const std::string& args) {
    std::string cmd =
        std::string(CLAWTOOLS_BIN_PATH) + " approvals " + args + " --db '" + db_ + "' 2>/dev/null";
    RunResult r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
    int status = pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
  }

  ApprovalRequest Pending(std::vector<std::string> argv) {
    auto a = manager_->Request({"coder", "u", "s", "cmd", dir_.string()}, Analysis({argv}),
                               {CheckVerdict::kAsk, "approval:not-allowlisted", "why"});
    EXPECT_TRUE(a);
    return a.value_or(ApprovalRequest{});
  }

  std::filesystem::path dir_;
  std::string db_;
  std::unique_ptr<store::Store> store_;
  std::shared_ptr<ApprovalManager> manager_;
};

TEST_F(ApprovalCliTest, ListAndAllowWhileACallWaits) {
  ApprovalRequest a = Pending({"make", "release"});
  auto waiter =
      std::async(std::launch::async, [&] { return manager_->Wait(a.id, Clock::now() + 30s); });

  RunResult list = Cli("list --json");
  ASSERT_EQ(list.exit_code, 0);
  Json listed = Json::parse(list.out, nullptr, false);
  ASSERT_TRUE(listed.is_array()) << list.out;
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0]["id"], a.id);
  EXPECT_EQ(listed[0]["canonical"], "make release");
  RunResult table = Cli("list");
  EXPECT_NE(table.out.find(a.id), std::string::npos) << table.out;

  RunResult allowed = Cli("allow " + a.id + " --always");
  ASSERT_EQ(allowed.exit_code, 0) << allowed.out;
  auto final = waiter.get();
  ASSERT_TRUE(final);
  EXPECT_EQ(final->status, ApprovalStatus::kAllowed);
  EXPECT_EQ(final->decision, ApprovalDecision::kAllowAlways);
  EXPECT_TRUE(final->decided_by.starts_with("cli")) << final->decided_by;

  EXPECT_EQ(Cli("allow " + a.id).exit_code, 1);  // already decided
  EXPECT_EQ(Cli("list --json").out, "[]\n");     // nothing pending any more
  EXPECT_EQ(Json::parse(Cli("list --status all --json").out).size(), 1u);

  Json rules = Json::parse(Cli("rules").out, nullptr, false);
  ASSERT_TRUE(rules.is_array());
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0]["pattern"], "make release");
  std::string rule_id = std::to_string(rules[0]["id"].get<int64_t>());
  EXPECT_EQ(Cli("rules rm " + rule_id).exit_code, 0);
  EXPECT_EQ(Cli("rules rm " + rule_id).exit_code, 1);
  EXPECT_EQ(Json::parse(Cli("rules list").out).size(), 0u);
}

TEST_F(ApprovalCliTest, DenyAndErrors) {
  ApprovalRequest a = Pending({"curl", "example.com"});
  auto waiter =
      std::async(std::launch::async, [&] { return manager_->Wait(a.id, Clock::now() + 30s); });
  EXPECT_EQ(Cli("deny " + a.id).exit_code, 0);
  auto final = waiter.get();
  ASSERT_TRUE(final);
  EXPECT_EQ(final->status, ApprovalStatus::kDenied);

  EXPECT_EQ(Cli("deny apr_unknown").exit_code, 1);
  EXPECT_EQ(Cli("list --status bogus").exit_code, 2);
  EXPECT_EQ(Cli("allow").exit_code, 2);
  EXPECT_EQ(Cli("rules rm x").exit_code, 2);
  EXPECT_EQ(Cli("rules rm").exit_code, 2);
}

TEST_F(ApprovalCliTest, AllowAlwaysRefusedForABareInterpreter) {
  ApprovalRequest a = Pending({"python3"});
  EXPECT_EQ(Cli("allow --always " + a.id).exit_code, 1);
  EXPECT_EQ(manager_->store().Get(a.id).value()->status, ApprovalStatus::kPending);
  EXPECT_EQ(Cli("allow " + a.id).exit_code, 0);
}

}  // namespace
}  // namespace clawtools
