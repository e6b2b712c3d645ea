// Shared pieces of the exec/process tool tests: a scriptable gate, a workspace, contexts.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "core/call_context.h"
#include "sandbox/sandbox.h"
#include "tools/runtime/command_gate.h"
#include "tools/runtime/runtime_tools.h"

namespace clawtools {

class FakeGate : public CommandGate {
 public:
  explicit FakeGate(bool allow) : allow_(allow) {}
  GateVerdict DoCheck(const CallContext&, const CommandCheck& check) const override {
    std::lock_guard lock(mu_);
    seen_.push_back({std::string(check.command), std::string(check.cwd)});
    if (allow_) return {true, "test:allow", ""};
    return {false, "deny:test-rule", "matches the test deny rule"};
  }
  std::vector<std::pair<std::string, std::string>> seen() const {
    std::lock_guard lock(mu_);
    return seen_;
  }

 private:
  bool allow_;
  mutable std::mutex mu_;
  mutable std::vector<std::pair<std::string, std::string>> seen_;
};

inline std::shared_ptr<const sandbox::Sandbox> SharedSandbox() {
  static auto s = [] {
    sandbox::SandboxOptions o;
    o.native.init_helper = CLAWTOOLS_SANDBOX_INIT_BUILD_PATH;
    o.probe_docker = false;
    return sandbox::Sandbox::Create(std::move(o));
  }();
  return s;
}

class RuntimeToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/clawtools-rt-test-XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    ::chmod(dir, 0755);
    ws_ = dir;
  }
  void TearDown() override {
    tools_ = {};
    std::error_code ec;
    std::filesystem::remove_all(ws_, ec);
  }

  // Builds exec/process from a config document.
  void Make(const std::string& config_json, bool allow = true, bool with_sandbox = false) {
    gate_ = std::make_shared<FakeGate>(allow);
    tools_ =
        MakeRuntimeTools(Json::parse(config_json), gate_, with_sandbox ? SharedSandbox() : nullptr);
  }

  CallContext Ctx(const std::string& session = "s1",
                  std::chrono::seconds limit = std::chrono::seconds(60),
                  std::stop_token stop = {}) {
    CallRequest req;
    req.session_key = session;
    req.agent_id = "coder";
    return CallContext(req, "exec", ws_, std::chrono::steady_clock::now() + limit, stop);
  }

  Result Exec(const Json& args, const std::string& session = "s1") {
    return tools_.exec->Execute(Ctx(session), args);
  }
  Result Proc(const Json& args, const std::string& session = "s1") {
    return tools_.process->Execute(Ctx(session), args);
  }

  std::string ws_;
  std::shared_ptr<FakeGate> gate_;
  RuntimeTools tools_;
};

}  // namespace clawtools
