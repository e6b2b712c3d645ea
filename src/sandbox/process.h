// A child process in its own session and process group, owned by a Process object.
//
// Spawn forks and execs argv with exactly the environment given (never the parent's), stdin
// and a merged stdout+stderr pipe (one pipe keeps the order the child wrote in), setsid() so
// the whole tree can be signalled as a group, PR_SET_PDEATHSIG so a gateway crash takes the
// child with it, and every fd closed except the pipes and `inherit_fds`. A failure between
// fork and exec (chdir, pre_exec, execve) is reported back through a CLOEXEC pipe, so Spawn
// returns an error instead of a child that exits 127.
//
// The destructor kills the process group (SIGKILL) and reaps the child: a Process never leaks
// a running tree or a zombie. Thread-compatible: one owner at a time, except Signal/KillGroup,
// which are safe to call from other threads while the owner waits.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/unique_fd.h"

namespace clawtools::sandbox {

struct SpawnSpec {
  std::vector<std::string> argv;  // argv[0] is an absolute path or found on the env's PATH
  std::vector<std::string> env;   // "K=V"; the child's whole environment
  std::string cwd;                // empty = inherit
  std::vector<int> inherit_fds;   // kept open (same numbers) across exec
  std::vector<int> setup_fds;     // kept open for pre_exec, closed at exec (must be CLOEXEC)
  // Runs in the child after fork, before exec. Must be async-signal-safe (no allocation,
  // no locks: the parent is multi-threaded). Returns 0 or an errno; `*what` names the step.
  std::function<int(const char** what)> pre_exec;
};

struct ExitStatus {
  int code = -1;   // exit code, or -1 when killed by a signal
  int signal = 0;  // terminating signal, 0 when exited
  // Shell convention: code, or 128 + signal.
  int ShellCode() const { return signal ? 128 + signal : code; }
};

class Process {
 public:
  static Expected<Process> Spawn(const SpawnSpec& spec);

  Process() = default;
  Process(Process&& o) noexcept;
  Process& operator=(Process&& o) noexcept;
  ~Process();

  pid_t pid() const { return pid_; }
  int stdin_fd() const { return stdin_.get(); }
  int output_fd() const { return output_.get(); }
  void CloseStdin() { stdin_.reset(); }
  UniqueFd TakeOutput() { return std::move(output_); }

  // Sends `sig` to the whole process group. False once the child has been reaped.
  bool Signal(int sig) const;
  // SIGTERM to the group, up to `grace` for the leader to exit, then SIGKILL to the group.
  // Reaps the leader.
  ExitStatus KillGroup(std::chrono::milliseconds grace = std::chrono::milliseconds(500));

  // Non-blocking reap; nullopt while running.
  std::optional<ExitStatus> TryWait();
  // Blocking reap. After the leader exits, stragglers left in its group are SIGKILLed.
  ExitStatus Wait();
  bool exited() const { return status_.has_value(); }

 private:
  void Reaped(int wstatus);

  pid_t pid_ = -1;
  UniqueFd stdin_;
  UniqueFd output_;
  std::optional<ExitStatus> status_;
  // The pgid stays valid for signalling until the leader is reaped; after that the number can
  // be reused, so Signal refuses. Atomic so another thread may signal while the owner waits.
  std::atomic<bool> reaped_{false};
};

}  // namespace clawtools::sandbox
