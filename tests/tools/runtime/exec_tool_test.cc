#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "runtime_test_util.h"

namespace clawtools {
namespace {

using namespace std::chrono_literals;

TEST_F(RuntimeToolTest, RunsOnHostWithExitCodeAndWhere) {
  Make("{}");
  Result r = Exec({{"command", "echo out; echo err >&2"}});
  EXPECT_FALSE(r.is_error) << r.for_llm;
  EXPECT_TRUE(r.for_llm.starts_with("[ran on host] exit code 0 in ")) << r.for_llm;
  EXPECT_NE(r.for_llm.find("\nout\nerr\n"), std::string::npos);
}

TEST_F(RuntimeToolTest, NonZeroExitIsAnErrorThatKeepsTheOutput) {
  Make("{}");
  Result r = Exec({{"command", "echo partial; exit 7"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("exit code 7"), std::string::npos);
  EXPECT_NE(r.for_llm.find("partial"), std::string::npos);
  EXPECT_NE(Exec({{"command", "true"}}).for_llm.find("(no output)"), std::string::npos);
}

TEST_F(RuntimeToolTest, HostCommandsNeverSeeTheGatewaySecrets) {
  Make(R"({"tools":{"exec":{"env":{"CONFIGURED":"yes"}}}})");
  const char* secrets[] = {"CLAWTOOLS_TOKEN", "OPENAI_API_KEY", "CLAWTOOLS_ENCRYPTION_KEY",
                           "DATABASE_URL"};
  for (const char* s : secrets) ::setenv(s, "leak-canary-value", 1);
  Result r = Exec({{"command", "env; cat /proc/$$/environ | tr '\\0' '\\n'"}});
  for (const char* s : secrets) ::unsetenv(s);
  EXPECT_EQ(r.for_llm.find("leak-canary-value"), std::string::npos) << r.for_llm;
  EXPECT_NE(r.for_llm.find("CONFIGURED=yes"), std::string::npos);
  EXPECT_NE(r.for_llm.find("PATH="), std::string::npos);
}

TEST_F(RuntimeToolTest, GateDenialRunsNothing) {
  Make("{}", /*allow=*/false);
  Result r = Exec({{"command", "touch ran-anyway"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("matches the test deny rule"), std::string::npos) << r.for_llm;
  EXPECT_NE(r.for_llm.find("deny:test-rule"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(ws_ + "/ran-anyway"));
  ASSERT_EQ(gate_->seen().size(), 1u);
  EXPECT_EQ(gate_->seen()[0].first, "touch ran-anyway");
}

TEST_F(RuntimeToolTest, WorkingDirStaysInsideTheWorkspace) {
  Make("{}");
  std::filesystem::create_directories(ws_ + "/sub/dir");
  std::filesystem::create_directory_symlink("/etc", ws_ + "/etc-link");
  Result r = Exec({{"command", "pwd"}, {"working_dir", "sub/dir"}});
  EXPECT_NE(r.for_llm.find(std::filesystem::canonical(ws_).string() + "/sub/dir\n"),
            std::string::npos)
      << r.for_llm;
  EXPECT_EQ(gate_->seen().back().second, std::filesystem::canonical(ws_).string() + "/sub/dir");
  for (const char* bad : {"..", "../..", "/etc", "etc-link", "sub/../../x"}) {
    Result b = Exec({{"command", "pwd"}, {"working_dir", bad}});
    EXPECT_TRUE(b.is_error) << bad << ": " << b.for_llm;
  }
  EXPECT_TRUE(Exec({{"command", "pwd"}, {"working_dir", "missing"}}).is_error);
}

TEST_F(RuntimeToolTest, TimeoutKillsTheGroupAndIsCappedByConfig) {
  Make(R"({"tools":{"exec":{"timeout_sec":1}}})");
  auto start = std::chrono::steady_clock::now();
  Result r = Exec({{"command", "sleep 100 & sleep 100"}, {"timeout", 50}});
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("timed out after"), std::string::npos) << r.for_llm;
  EXPECT_EQ(r.error_code, ErrorCode::kDeadlineExceeded);
}

TEST_F(RuntimeToolTest, CancellationKillsTheCommand) {
  Make("{}");
  std::stop_source stop;
  std::jthread t([&] {
    std::this_thread::sleep_for(200ms);
    stop.request_stop();
  });
  auto start = std::chrono::steady_clock::now();
  Result r = tools_.exec->Execute(Ctx("s1", 60s, stop.get_token()), {{"command", "sleep 100"}});
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_NE(r.for_llm.find("cancelled"), std::string::npos) << r.for_llm;
}

// A process group does not contain a host command: setsid leaves it. The reaper the command
// runs under finds what it left behind anyway, when it ends and when it is timed out.
TEST_F(RuntimeToolTest, HostCommandsLeaveNothingBehindEvenOutsideTheirGroup) {
  Make(R"({"tools":{"exec":{"timeout_sec":1}}})");
  const std::string escape =
      "setsid sh -c 'echo $$ > ESC.pid; exec sleep 300' </dev/null >/dev/null 2>&1 & "
      "while [ ! -s ESC.pid ]; do sleep 0.02; done; ";
  auto escaped_pid = [&](const std::string& file) {
    pid_t pid = 0;
    std::ifstream(ws_ + "/" + file) >> pid;
    return pid;
  };
  auto alive = [](pid_t pid) { return ::kill(pid, 0) == 0; };

  std::string ends = escape;
  ends.replace(ends.find("ESC"), 3, "ends").replace(ends.find("ESC"), 3, "ends");
  Result r = Exec({{"command", ends + "echo started"}});
  EXPECT_FALSE(r.is_error) << r.for_llm;
  EXPECT_NE(r.for_llm.find("started"), std::string::npos);
  pid_t first = escaped_pid("ends.pid");
  ASSERT_GT(first, 1);
  EXPECT_FALSE(alive(first)) << "a setsid child outlived its command";

  std::string times_out = escape;
  times_out.replace(times_out.find("ESC"), 3, "late").replace(times_out.find("ESC"), 3, "late");
  r = Exec({{"command", times_out + "sleep 100"}});
  EXPECT_EQ(r.error_code, ErrorCode::kDeadlineExceeded) << r.for_llm;
  pid_t second = escaped_pid("late.pid");
  ASSERT_GT(second, 1);
  EXPECT_FALSE(alive(second)) << "a setsid child outlived its timed-out command";
  if (alive(first)) ::kill(first, SIGKILL);
  if (alive(second)) ::kill(second, SIGKILL);
}

// The reaper reports the command's own ending: its exit code, or the signal that ended it.
TEST_F(RuntimeToolTest, ReapedHostCommandsKeepTheirExitStatus) {
  Make("{}");
  EXPECT_NE(Exec({{"command", "exit 42"}}).for_llm.find("exit code 42"), std::string::npos);
  Result r = Exec({{"command", "kill -TERM $$"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("signal 15"), std::string::npos) << r.for_llm;
}

TEST_F(RuntimeToolTest, LongOutputGetsHeadTailAndAFullOutputFile) {
  Make(R"({"tools":{"exec":{"max_output_chars":1000}}})");
  Result r = Exec({{"command", "seq 1 100000"}});
  EXPECT_FALSE(r.is_error);
  EXPECT_NE(r.for_llm.find("\n1\n2\n3\n"), std::string::npos);
  EXPECT_TRUE(r.for_llm.ends_with("99999\n100000\n"));
  EXPECT_LT(r.for_llm.size(), 1400u);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.for_llm, m,
                                std::regex(R"(full output in (\.clawtools/exec/[^ ]+\.log))")))
      << r.for_llm;
  std::ifstream f(ws_ + "/" + m[1].str());
  std::string all((std::istreambuf_iterator<char>(f)), {});
  EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 100000);
  EXPECT_TRUE(all.ends_with("\n100000\n"));
}

TEST_F(RuntimeToolTest, ModeNonMainSandboxesOnlyOtherSessions) {
  Make(R"({"agents":{"defaults":{"sandbox":{"mode":"non-main"}}}})", true, true);
  ASSERT_TRUE(SharedSandbox()->available(sandbox::BackendKind::kNative));
  Result main = Exec({{"command", "id -u"}}, "agent:coder:main");
  EXPECT_TRUE(main.for_llm.starts_with("[ran on host]")) << main.for_llm;
  Result other = Exec({{"command", "id -u; pwd"}}, "agent:coder:telegram:42");
  EXPECT_TRUE(other.for_llm.starts_with("[ran in sandbox: native (bwrap, uid 65534"))
      << other.for_llm;
  EXPECT_NE(other.for_llm.find("\n65534\n/workspace\n"), std::string::npos) << other.for_llm;
}

TEST_F(RuntimeToolTest, SandboxedWorkingDirMapsUnderWorkspace) {
  Make(R"({"agents":{"list":[{"id":"coder","sandbox":{"mode":"all"}}]}})", true, true);
  std::filesystem::create_directories(ws_ + "/a/b");
  Result r = Exec({{"command", "pwd; echo hi > f.txt"}, {"working_dir", "a/b"}});
  EXPECT_NE(r.for_llm.find("\n/workspace/a/b\n"), std::string::npos) << r.for_llm;
  EXPECT_TRUE(std::filesystem::exists(ws_ + "/a/b/f.txt"));
}

TEST_F(RuntimeToolTest, RequiredRefusesWithoutABackendAndAllFallsBackSayingSo) {
  Make(R"({"agents":{"defaults":{"sandbox":{"mode":"required"}}}})");
  Result r = Exec({{"command", "touch ran-on-host"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("sandbox required but unavailable"), std::string::npos) << r.for_llm;
  EXPECT_FALSE(std::filesystem::exists(ws_ + "/ran-on-host"));

  Make(R"({"agents":{"defaults":{"sandbox":{"mode":"required","backend":"docker"}}}})", true, true);
  EXPECT_NE(Exec({{"command", "true"}}).for_llm.find("sandbox required but unavailable (docker"),
            std::string::npos);

  Make(R"({"agents":{"defaults":{"sandbox":{"mode":"all"}}}})");
  Result f = Exec({{"command", "echo ok"}});
  EXPECT_TRUE(
      f.for_llm.starts_with("[ran on host (sandbox unavailable: native: no sandbox configured)]"))
      << f.for_llm;
}

}  // namespace
}  // namespace clawtools
