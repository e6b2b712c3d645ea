// A native Sandbox shared by the escape tests, and a throwaway workspace per test.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "sandbox/run.h"
#include "sandbox/sandbox.h"

namespace clawtools::sandbox {

inline std::shared_ptr<const Sandbox> TestSandbox() {
  static std::shared_ptr<const Sandbox> s = [] {
    SandboxOptions o;
    o.native.init_helper = CLAWTOOLS_SANDBOX_INIT_BUILD_PATH;
    o.native.tmp_size_mb = 16;
    o.native.file_size_mb = 8;
    o.probe_docker = false;
    return Sandbox::Create(std::move(o));
  }();
  return s;
}

class SandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::access("/usr/bin/bwrap", X_OK) != 0) GTEST_SKIP() << "bubblewrap not installed";
    sandbox_ = TestSandbox();
    ASSERT_TRUE(sandbox_->capabilities().native.available)
        << sandbox_->capabilities().ToJson().dump();
    char dir[] = "/tmp/clawtools-sbx-test-XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    ws_ = dir;
    ::chmod(dir, 0755);
    policy_.mode = Mode::kAll;
    policy_.timeout_sec = 30;
  }
  void TearDown() override {
    std::error_code ec;
    if (!ws_.empty()) std::filesystem::remove_all(ws_, ec);
  }

  struct Ran {
    RunOutcome out;
    std::string where;
    int code() const { return out.status.ShellCode(); }
    const std::string& text() const { return out.head; }
  };

  Ran Run(const std::string& cmd, std::chrono::seconds limit = std::chrono::seconds(20)) {
    LaunchRequest req{
        .command = cmd, .workspace = ws_, .session_key = "test:s1", .policy = policy_};
    auto l = sandbox_->Start(req);
    EXPECT_TRUE(l.has_value()) << (l ? "" : l.error().log_message());
    if (!l) return {};
    Ran r{RunToCompletion(l->process, {.deadline = std::chrono::steady_clock::now() + limit}),
          l->where};
    return r;
  }

  std::shared_ptr<const Sandbox> sandbox_;
  std::string ws_;
  Policy policy_;
};

}  // namespace clawtools::sandbox
