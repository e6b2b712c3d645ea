#include <signal.h>

#include <fstream>
#include <thread>

#include "runtime_test_util.h"

namespace clawtools {
namespace {

using namespace std::chrono_literals;

std::string StartedId(const Result& r) {
  EXPECT_FALSE(r.is_error) << r.for_llm;
  auto p = r.for_llm.find("proc-");
  return p == std::string::npos ? "" : r.for_llm.substr(p, r.for_llm.find(' ', p) - p);
}

bool Alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z';
}

class ProcessToolTest : public RuntimeToolTest {
 protected:
  // Polls until `needle` shows up in the poll text (or 5 s pass).
  std::string WaitFor(const std::string& id, const std::string& needle,
                      const std::string& session = "s1") {
    std::string text;
    for (int i = 0; i < 500; ++i) {
      text = Proc({{"action", "poll"}, {"id", id}}, session).for_llm;
      if (text.find(needle) != std::string::npos) return text;
      std::this_thread::sleep_for(10ms);
    }
    ADD_FAILURE() << "never saw '" << needle << "' in: " << text;
    return text;
  }
};

TEST_F(ProcessToolTest, LifecycleWithStdin) {
  Make("{}");
  std::string id = StartedId(Proc({{"action", "start"}, {"command", "cat"}}));
  ASSERT_FALSE(id.empty());
  EXPECT_NE(Proc({{"action", "list"}}).for_llm.find(id + "  running"), std::string::npos);
  EXPECT_EQ(Proc({{"action", "write"}, {"id", id}, {"data", "hello\n"}}).for_llm,
            "wrote 6 bytes to " + id);
  WaitFor(id, "hello\n");
  Proc({{"action", "write"}, {"id", id}, {"data", "bye\n"}, {"eof", true}});
  std::string done = WaitFor(id, "exited 0");
  EXPECT_NE(done.find("hello\nbye\n"), std::string::npos) << done;
  EXPECT_TRUE(Proc({{"action", "write"}, {"id", id}, {"data", "x"}}).is_error);
  EXPECT_FALSE(Proc({{"action", "remove"}, {"id", id}}).is_error);
  EXPECT_EQ(Proc({{"action", "list"}}).for_llm, "no background processes in this session");
}

TEST_F(ProcessToolTest, PollUsesAbsoluteOffsetsAndReportsScrolledOutBytes) {
  Make(R"({"tools":{"exec":{"process":{"buffer_bytes":4096}}}})");
  std::string id = StartedId(Proc({{"action", "start"}, {"command", "seq 1 3"}}));
  WaitFor(id, "exited 0");
  Result r = Proc({{"action", "poll"}, {"id", id}, {"offset", 2}, {"max_bytes", 2}});
  EXPECT_NE(r.for_llm.find("bytes 2..4 of 6; next_offset 4]\n2\n"), std::string::npos) << r.for_llm;

  std::string big = StartedId(Proc({{"action", "start"}, {"command", "seq 1 10000"}}));
  std::string text = WaitFor(big, "exited 0");
  Result old = Proc({{"action", "poll"}, {"id", big}, {"offset", 0}, {"max_bytes", 10}});
  EXPECT_NE(old.for_llm.find("scrolled out of the buffer"), std::string::npos) << old.for_llm;
  Result tail = Proc({{"action", "poll"}, {"id", big}, {"offset", 48888}});
  EXPECT_TRUE(tail.for_llm.ends_with("48894]\n10000\n")) << tail.for_llm;
}

TEST_F(ProcessToolTest, SignalKillAndRemove) {
  Make("{}");
  std::string id = StartedId(
      Proc({{"action", "start"},
            {"command",
             "trap 'echo got-term; exit 3' TERM; echo ready; while :; do sleep 0.05; done"}}));
  WaitFor(id, "ready");
  EXPECT_FALSE(Proc({{"action", "signal"}, {"id", id}, {"signal", "SIGTERM"}}).is_error);
  std::string t = WaitFor(id, "exited 3");
  EXPECT_NE(t.find("got-term"), std::string::npos);
  EXPECT_TRUE(Proc({{"action", "signal"}, {"id", id}, {"signal", "BOGUS"}}).is_error);

  std::string k = StartedId(Proc({{"action", "start"}, {"command", "sleep 100"}}));
  EXPECT_FALSE(Proc({{"action", "kill"}, {"id", k}}).is_error);
  WaitFor(k, "exited 137");
  EXPECT_FALSE(Proc({{"action", "remove"}, {"id", k}}).is_error);
  EXPECT_TRUE(Proc({{"action", "poll"}, {"id", k}}).is_error);
}

TEST_F(ProcessToolTest, SessionsAreIsolated) {
  Make("{}");
  std::string id = StartedId(Proc({{"action", "start"}, {"command", "sleep 100"}}, "alice"));
  EXPECT_EQ(Proc({{"action", "list"}}, "bob").for_llm, "no background processes in this session");
  for (const char* action : {"poll", "kill", "remove"}) {
    Result r = Proc({{"action", action}, {"id", id}}, "bob");
    EXPECT_TRUE(r.is_error) << action;
    EXPECT_EQ(r.error_code, ErrorCode::kNotFound);
  }
  EXPECT_TRUE(Proc({{"action", "write"}, {"id", id}, {"data", "x"}}, "bob").is_error);
  EXPECT_NE(Proc({{"action", "list"}}, "alice").for_llm.find(id), std::string::npos);
}

TEST_F(ProcessToolTest, LimitsPerSession) {
  Make(R"({"tools":{"exec":{"process":{"max_per_session":2}}}})");
  StartedId(Proc({{"action", "start"}, {"command", "sleep 100"}}));
  StartedId(Proc({{"action", "start"}, {"command", "sleep 100"}}));
  Result third = Proc({{"action", "start"}, {"command", "sleep 100"}});
  EXPECT_TRUE(third.is_error);
  EXPECT_NE(third.for_llm.find("limit 2"), std::string::npos);
  EXPECT_FALSE(Proc({{"action", "start"}, {"command", "true"}}, "other").is_error);
}

TEST_F(ProcessToolTest, CleanupSessionAndDestructorKillEverything) {
  Make("{}");
  std::string a =
      StartedId(Proc({{"action", "start"}, {"command", "echo pid=$$; exec sleep 1000"}}, "gone"));
  std::string b =
      StartedId(Proc({{"action", "start"}, {"command", "echo pid=$$; exec sleep 1000"}}, "stays"));
  auto pid_of = [&](const std::string& id, const std::string& session) {
    std::string t = WaitFor(id, "pid=", session);
    return static_cast<pid_t>(std::atoi(t.c_str() + t.find("pid=") + 4));
  };
  pid_t pa = pid_of(a, "gone"), pb = pid_of(b, "stays");
  tools_.processes->CleanupSession("gone");
  for (int i = 0; i < 200 && Alive(pa); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_FALSE(Alive(pa));
  EXPECT_TRUE(Alive(pb));
  EXPECT_EQ(tools_.processes->size(), 1u);
  tools_ = {};  // the registry's destructor
  for (int i = 0; i < 200 && Alive(pb); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_FALSE(Alive(pb));
}

TEST_F(ProcessToolTest, GateDenialStartsNothing) {
  Make("{}", /*allow=*/false);
  Result r = Proc({{"action", "start"}, {"command", "sleep 100"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("deny:test-rule"), std::string::npos);
  EXPECT_EQ(tools_.processes->size(), 0u);
}

TEST_F(ProcessToolTest, BackgroundProcessesUseTheSandbox) {
  Make(R"({"agents":{"defaults":{"sandbox":{"mode":"all"}}}})", true, true);
  Result r = Proc({{"action", "start"}, {"command", "id -u; cat"}});
  EXPECT_NE(r.for_llm.find("[in sandbox: native (bwrap"), std::string::npos) << r.for_llm;
  std::string id = StartedId(r);
  WaitFor(id, "65534\n");
  Proc({{"action", "write"}, {"id", id}, {"data", "via-stdin\n"}, {"eof", true}});
  WaitFor(id, "via-stdin");
  WaitFor(id, "exited 0");
}

}  // namespace
}  // namespace clawtools
