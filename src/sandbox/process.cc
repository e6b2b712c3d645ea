#include "sandbox/process.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

namespace clawtools::sandbox {
namespace {

// What the child writes to the error pipe when it fails before exec.
struct ChildFailure {
  int err;
  char what[48];
};

[[noreturn]] void ChildFail(int fd, int err, const char* what) {
  ChildFailure f{err, {}};
  std::strncpy(f.what, what, sizeof(f.what) - 1);
  (void)!::write(fd, &f, sizeof(f));
  ::_exit(127);
}

// Closes every fd >= 3 except those listed, without allocating.
void CloseOtherFds(const int* keep, size_t n) {
  int next = 3;
  int sorted[64];
  n = std::min<size_t>(n, 64);
  std::copy(keep, keep + n, sorted);
  std::sort(sorted, sorted + n);
  for (size_t i = 0; i < n; ++i) {
    if (sorted[i] < next) continue;
    if (sorted[i] > next) ::syscall(SYS_close_range, next, sorted[i] - 1, 0);
    next = sorted[i] + 1;
  }
  ::syscall(SYS_close_range, next, ~0U, 0);
}

}  // namespace

Expected<Process> Process::Spawn(const SpawnSpec& spec) {
  if (spec.argv.empty()) return Fail(ErrorCode::kInvalidArgument, "empty argv");
  if (spec.inherit_fds.size() + spec.setup_fds.size() > 60)
    return Fail(ErrorCode::kInvalidArgument, "too many fds");
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return Fail(ErrorCode::kInternal, "pipe failed");
  UniqueFd in_r(in[0]), in_w(in[1]);
  if (::pipe2(out, O_CLOEXEC) != 0) return Fail(ErrorCode::kInternal, "pipe failed");
  UniqueFd out_r(out[0]), out_w(out[1]);
  if (::pipe2(err, O_CLOEXEC) != 0) return Fail(ErrorCode::kInternal, "pipe failed");
  UniqueFd err_r(err[0]), err_w(err[1]);

  // Everything the child touches is prepared here: no allocation after fork.
  std::vector<char*> argv, envp;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : spec.env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  std::vector<int> keep = spec.inherit_fds;
  keep.insert(keep.end(), spec.setup_fds.begin(), spec.setup_fds.end());
  keep.push_back(err_w.get());
  const pid_t parent = ::getpid();

  pid_t pid = ::fork();
  if (pid < 0) return Fail(ErrorCode::kUnavailable, "fork failed", std::strerror(errno));
  if (pid == 0) {
    const int efd = err_w.get();
    ::setsid();
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent died before prctl took effect
    // Default signal dispositions and an empty mask: the gateway blocks some for its threads.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int s = 1; s < NSIG; ++s) ::signal(s, SIG_DFL);
    if (::dup2(in_r.get(), 0) < 0 || ::dup2(out_w.get(), 1) < 0 || ::dup2(out_w.get(), 2) < 0)
      ChildFail(efd, errno, "dup2");
    CloseOtherFds(keep.data(), keep.size());
    for (int fd : spec.inherit_fds) {
      int flags = ::fcntl(fd, F_GETFD);
      if (flags < 0 || ::fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
        ChildFail(efd, errno, "inherit fd");
    }
    if (!spec.cwd.empty() && ::chdir(spec.cwd.c_str()) != 0) ChildFail(efd, errno, "chdir");
    if (spec.pre_exec) {
      const char* what = "pre_exec";
      if (int e = spec.pre_exec(&what); e != 0) ChildFail(efd, e, what);
    }
    ::execvpe(argv[0], argv.data(), envp.data());
    ChildFail(efd, errno, "exec");
  }

  Process p;
  p.pid_ = pid;
  in_r.reset();
  out_w.reset();
  err_w.reset();
  ChildFailure f{};
  ssize_t n;
  do n = ::read(err_r.get(), &f, sizeof(f));
  while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof(f))) {
    p.Wait();
    return Fail(ErrorCode::kUnavailable, std::string("cannot start ") + spec.argv[0] + ": " +
                                             f.what + ": " + std::strerror(f.err));
  }
  p.stdin_ = std::move(in_w);
  p.output_ = std::move(out_r);
  return p;
}

Process::Process(Process&& o) noexcept
    : pid_(std::exchange(o.pid_, -1)),
      stdin_(std::move(o.stdin_)),
      output_(std::move(o.output_)),
      status_(std::move(o.status_)),
      reaped_(o.reaped_.load()) {}

Process& Process::operator=(Process&& o) noexcept {
  if (this != &o) {
    if (pid_ > 0 && !status_) KillGroup(std::chrono::milliseconds(0));
    pid_ = std::exchange(o.pid_, -1);
    stdin_ = std::move(o.stdin_);
    output_ = std::move(o.output_);
    status_ = std::move(o.status_);
    reaped_ = o.reaped_.load();
  }
  return *this;
}

Process::~Process() {
  if (pid_ > 0 && !status_) KillGroup(std::chrono::milliseconds(0));
}

bool Process::Signal(int sig) const {
  if (pid_ <= 0 || reaped_.load()) return false;
  return ::kill(-pid_, sig) == 0 || ::kill(pid_, sig) == 0;
}

void Process::Reaped(int wstatus) {
  ExitStatus s;
  if (WIFEXITED(wstatus)) s.code = WEXITSTATUS(wstatus);
  if (WIFSIGNALED(wstatus)) s.signal = WTERMSIG(wstatus);
  status_ = s;
  reaped_ = true;
}

std::optional<ExitStatus> Process::TryWait() {
  if (status_) return status_;
  if (pid_ <= 0) return ExitStatus{};
  // WNOWAIT: the zombie leader keeps its pid (our pgid) reserved while stragglers are killed.
  siginfo_t info{};
  if (::waitid(P_PID, pid_, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0)
    return std::nullopt;
  ::kill(-pid_, SIGKILL);
  int ws = 0;
  while (::waitpid(pid_, &ws, 0) < 0 && errno == EINTR) {
  }
  Reaped(ws);
  return status_;
}

ExitStatus Process::Wait() {
  if (status_) return *status_;
  if (pid_ <= 0) return ExitStatus{};
  siginfo_t info{};
  while (::waitid(P_PID, pid_, &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
  }
  ::kill(-pid_, SIGKILL);
  int ws = 0;
  while (::waitpid(pid_, &ws, 0) < 0 && errno == EINTR) {
  }
  Reaped(ws);
  return *status_;
}

ExitStatus Process::KillGroup(std::chrono::milliseconds grace) {
  if (status_) return *status_;
  if (grace.count() > 0) {
    Signal(SIGTERM);
    auto until = std::chrono::steady_clock::now() + grace;
    while (std::chrono::steady_clock::now() < until) {
      if (auto s = TryWait()) return *s;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  Signal(SIGKILL);
  return Wait();
}

}  // namespace clawtools::sandbox
