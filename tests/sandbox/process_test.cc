#include "sandbox/process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <stop_token>
#include <thread>

#include "sandbox/run.h"

namespace clawtools::sandbox {
namespace {

using namespace std::chrono_literals;

Process Sh(const std::string& cmd) {
  auto p = Process::Spawn({.argv = {"/bin/sh", "-c", cmd}, .env = {"PATH=/usr/bin:/bin"}});
  EXPECT_TRUE(p.has_value()) << (p ? "" : p.error().for_model);
  return std::move(*p);
}

// Running, not a zombie waiting for init to reap it.
bool Alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z';
}

TEST(Process, ExitCodesAndOutput) {
  auto p = Sh("echo out; echo err >&2; exit 3");
  RunOutcome r = RunToCompletion(p, {});
  EXPECT_EQ(r.status.code, 3);
  EXPECT_EQ(r.head, "out\nerr\n");
  EXPECT_FALSE(r.timed_out);
}

TEST(Process, KilledBySignalReportsShellCode) {
  auto p = Sh("kill -9 $$");
  RunOutcome r = RunToCompletion(p, {});
  EXPECT_EQ(r.status.signal, 9);
  EXPECT_EQ(r.status.ShellCode(), 137);
}

TEST(Process, MissingBinaryIsAnError) {
  auto p = Process::Spawn({.argv = {"/nonexistent/binary"}});
  ASSERT_FALSE(p.has_value());
  EXPECT_NE(p.error().for_model.find("exec"), std::string::npos);
}

TEST(Process, TimeoutKillsTheWholeGroupIncludingGrandchildren) {
  auto p = Sh("sleep 100 & echo $! > /dev/stdout; sleep 100");
  auto start = std::chrono::steady_clock::now();
  RunOutcome r = RunToCompletion(p, {.deadline = start + 300ms, .kill_grace = 100ms});
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  pid_t grandchild = std::atoi(r.head.c_str());
  ASSERT_GT(grandchild, 0);
  for (int i = 0; i < 100 && Alive(grandchild); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_FALSE(Alive(grandchild)) << "background sleep survived";
}

TEST(Process, LeaderExitKillsBackgroundChildrenHoldingTheOutput) {
  auto p = Sh("sleep 100 & echo $!");
  auto start = std::chrono::steady_clock::now();
  RunOutcome r = RunToCompletion(p, {.deadline = start + 10s});
  EXPECT_FALSE(r.timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  pid_t bg = std::atoi(r.head.c_str());
  for (int i = 0; i < 100 && Alive(bg); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_FALSE(Alive(bg));
}

TEST(Process, CancellationStopsTheRun) {
  auto p = Sh("sleep 100");
  std::stop_source stop;
  std::jthread canceller([&] {
    std::this_thread::sleep_for(100ms);
    stop.request_stop();
  });
  auto start = std::chrono::steady_clock::now();
  RunOutcome r = RunToCompletion(p, {.stop = stop.get_token(), .kill_grace = 100ms});
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(r.status.signal, SIGTERM);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
}

TEST(Process, GraceEscalatesToSigkill) {
  auto p = Sh("trap '' TERM; sleep 100");
  RunOutcome r = RunToCompletion(
      p, {.deadline = std::chrono::steady_clock::now() + 100ms, .kill_grace = 100ms});
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.status.signal, SIGKILL);
}

TEST(Process, OutputIsCappedAsHeadAndTail) {
  auto p = Sh("i=0; while [ $i -lt 20000 ]; do echo line$i; i=$((i+1)); done");
  RunOutcome r = RunToCompletion(p, {.head_bytes = 1000, .tail_bytes = 500});
  EXPECT_EQ(r.head.size(), 1000u);
  EXPECT_EQ(r.tail.size(), 500u);
  EXPECT_TRUE(r.head.starts_with("line0\n"));
  EXPECT_TRUE(r.tail.ends_with("line19999\n"));
  EXPECT_GT(r.total_bytes, 100000u);
  EXPECT_EQ(r.dropped_bytes(), r.total_bytes - 1500);
}

TEST(Process, StdinIsFedAndClosed) {
  auto p = Sh("wc -c");
  std::string big(300000, 'x');  // larger than a pipe buffer
  RunOutcome r = RunToCompletion(p, {.stdin_data = big});
  EXPECT_EQ(std::atoi(r.head.c_str()), 300000);
}

TEST(Process, ChildThatIgnoresStdinDoesNotKillUsWithSigpipe) {
  auto p = Sh("exit 0");
  RunOutcome r = RunToCompletion(p, {.stdin_data = std::string(1 << 20, 'x')});
  EXPECT_EQ(r.status.code, 0);
}

TEST(Process, DestructorKillsAndReaps) {
  pid_t pid;
  {
    auto p = Sh("sleep 100");
    pid = p.pid();
    EXPECT_TRUE(Alive(pid));
  }
  EXPECT_FALSE(Alive(pid));
}

TEST(Process, OnlyListedFdsAreInherited) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);  // not CLOEXEC on purpose
  auto p = Sh("ls /proc/self/fd | wc -l");
  RunOutcome r = RunToCompletion(p, {});
  // 0, 1, 2 and ls's own directory fd.
  EXPECT_EQ(std::atoi(r.head.c_str()), 4);
  ::close(fds[0]);
  ::close(fds[1]);
}

}  // namespace
}  // namespace clawtools::sandbox
