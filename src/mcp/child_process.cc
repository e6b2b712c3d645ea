#include "mcp/child_process.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace clawtools::mcp {
namespace {

std::string StatusText(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

}  // namespace

Expected<ChildProcess> ChildProcess::Spawn(const SpawnSpec& spec) {
  if (spec.command.empty())
    return Fail(ErrorCode::kInvalidArgument, "stdio MCP server has no command");
  // Everything the child needs is built before fork: after fork only async-signal-safe calls.
  std::vector<std::string> argv_s{spec.command};
  argv_s.insert(argv_s.end(), spec.args.begin(), spec.args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e) {
    std::string_view kv(*e);
    if (!spec.env.contains(std::string(kv.substr(0, kv.find('='))))) env_s.emplace_back(kv);
  }
  for (const auto& [k, v] : spec.env) env_s.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);

  int in[2], out[2], err[2], exec_err[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) {
    return Fail(ErrorCode::kInternal, "cannot create pipes for the MCP server", strerror(errno));
  }
  UniqueFd in0(in[0]), in1(in[1]);
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, out) != 0) {
    return Fail(ErrorCode::kInternal, "cannot create pipes for the MCP server", strerror(errno));
  }
  UniqueFd out0(out[0]), out1(out[1]);
  if (pipe2(err, O_CLOEXEC) != 0) {
    return Fail(ErrorCode::kInternal, "cannot create pipes for the MCP server", strerror(errno));
  }
  UniqueFd err0(err[0]), err1(err[1]);
  if (pipe2(exec_err, O_CLOEXEC) != 0) {
    return Fail(ErrorCode::kInternal, "cannot create pipes for the MCP server", strerror(errno));
  }
  UniqueFd exec0(exec_err[0]), exec1(exec_err[1]);

  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) return Fail(ErrorCode::kInternal, "cannot start the MCP server", strerror(errno));
  if (pid == 0) {
    setsid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the parent died before prctl took effect
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    signal(SIGPIPE, SIG_DFL);
    dup2(in1.get(), 0);
    dup2(out1.get(), 1);
    dup2(err1.get(), 2);
    // Inherited descriptors of other subsystems (sockets, databases) must not leak into it.
    syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
    execvpe(argv[0], argv.data(), envp.data());
    int e = errno;
    ssize_t ignored = write(exec1.get(), &e, sizeof e);
    (void)ignored;
    _exit(127);
  }
  exec1.reset();
  int child_errno = 0;
  ssize_t n;
  do {
    n = read(exec0.get(), &child_errno, sizeof child_errno);
  } while (n < 0 && errno == EINTR);
  if (n == sizeof child_errno) {
    waitpid(pid, nullptr, 0);
    return Fail(ErrorCode::kUnavailable, "cannot start MCP server command \"" + spec.command +
                                             "\": " + strerror(child_errno));
  }
  ChildProcess c;
  c.pid_ = pid;
  c.stdin_ = std::move(in0);
  c.stdout_ = std::move(out0);
  c.stderr_ = std::move(err0);
  return c;
}

ChildProcess::ChildProcess(ChildProcess&& o) noexcept
    : pid_(std::exchange(o.pid_, -1)),
      reaped_(o.reaped_),
      status_(std::move(o.status_)),
      stdin_(std::move(o.stdin_)),
      stdout_(std::move(o.stdout_)),
      stderr_(std::move(o.stderr_)) {}

ChildProcess::~ChildProcess() {
  Terminate(std::chrono::milliseconds(200));
}

std::optional<std::string> ChildProcess::TryWait() {
  if (pid_ < 0) return std::nullopt;
  if (reaped_) return status_;
  int status = 0;
  pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    reaped_ = true;
    status_ = StatusText(status);
    return status_;
  }
  return std::nullopt;
}

bool ChildProcess::WaitFor(std::chrono::milliseconds d) {
  auto until = std::chrono::steady_clock::now() + d;
  while (!TryWait()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

void ChildProcess::Terminate(std::chrono::milliseconds grace) {
  if (pid_ < 0) return;
  stdin_.reset();  // EOF on stdin: the polite way to ask an MCP stdio server to exit
  if (!WaitFor(grace)) {
    kill(-pid_, SIGTERM);
    if (!WaitFor(grace)) {
      kill(-pid_, SIGKILL);
      WaitFor(std::chrono::seconds(10));
    }
  }
  // The leader is gone; anything it left in its group goes too.
  kill(-pid_, SIGKILL);
  pid_ = -1;
}

}  // namespace clawtools::mcp
