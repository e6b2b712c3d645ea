// A child process in its own process group (session), with its stdio connected to us.
//
// No orphans: the child is a session leader, so Terminate() signals the whole group
// (grandchildren such as `npx` -> `node` included); it asks the kernel to SIGKILL it when the
// spawning *thread* dies (PR_SET_PDEATHSIG, which tracks the thread, so spawn from a
// long-lived thread); and the destructor terminates and reaps it.
//
// stdin and stdout are Unix socket pairs, not pipes: writes use MSG_NOSIGNAL, so a dead child
// yields EPIPE instead of a process-killing SIGPIPE. stderr is a pipe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/unique_fd.h"

namespace clawtools::mcp {

struct SpawnSpec {
  std::string command;  // looked up in PATH when it has no '/'
  std::vector<std::string> args;
  std::map<std::string, std::string> env;  // added to (overriding) the inherited environment
};

class ChildProcess {
 public:
  static Expected<ChildProcess> Spawn(const SpawnSpec& spec);

  ChildProcess(ChildProcess&& o) noexcept;
  ChildProcess& operator=(ChildProcess&&) = delete;
  ~ChildProcess();

  pid_t pid() const { return pid_; }
  UniqueFd& stdin_fd() { return stdin_; }
  UniqueFd& stdout_fd() { return stdout_; }
  UniqueFd& stderr_fd() { return stderr_; }

  // The exit status text ("exit status 1", "killed by signal 9") once reaped; reaps without
  // blocking when the child has exited.
  std::optional<std::string> TryWait();
  // Closes stdin, waits `grace` for a voluntary exit, then SIGTERM to the group, `grace` again,
  // then SIGKILL to the group; reaps the child. Idempotent.
  void Terminate(std::chrono::milliseconds grace = std::chrono::milliseconds(1000));

 private:
  ChildProcess() = default;
  bool WaitFor(std::chrono::milliseconds d);

  pid_t pid_ = -1;
  bool reaped_ = false;
  std::string status_;
  UniqueFd stdin_, stdout_, stderr_;
};

}  // namespace clawtools::mcp
