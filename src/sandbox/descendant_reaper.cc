#include "sandbox/descendant_reaper.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace clawtools::sandbox {
namespace {

[[noreturn]] void Die(const char* what) {
  std::fprintf(stderr, "clawtools reaper: %s: %s\n", what, std::strerror(errno));
  std::_Exit(126);
}

// The parent pid from /proc/<pid>/stat: the field after the state, after the last ')' (the
// command name may contain anything, also parentheses and spaces).
pid_t ParentOf(const char* pid) {
  char path[300], buf[512];
  std::snprintf(path, sizeof(path), "/proc/%s/stat", pid);
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = ::read(fd, buf, sizeof(buf) - 1);
  ::close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  const char* close_paren = std::strrchr(buf, ')');
  if (!close_paren) return -1;
  char state = 0;
  int ppid = -1;
  if (std::sscanf(close_paren + 1, " %c %d", &state, &ppid) != 2) return -1;
  return ppid;
}

std::vector<pid_t> Children() {
  std::vector<pid_t> out;
  const pid_t self = ::getpid();
  DIR* d = ::opendir("/proc");
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
    if (ParentOf(e->d_name) == self) out.push_back(static_cast<pid_t>(std::atoi(e->d_name)));
  }
  ::closedir(d);
  return out;
}

// Kills the children; their own children are re-parented here as they die, so repeat until
// there is nothing left to wait for. A process forking as fast as it can is still finite:
// each round kills every process that exists when it is read.
void KillDescendants() {
  for (;;) {
    int ws = 0;
    pid_t r = ::waitpid(-1, &ws, WNOHANG);
    if (r < 0 && errno == ECHILD) return;  // the common case: the command left nothing
    if (r > 0) continue;
    for (pid_t c : Children()) ::kill(c, SIGKILL);
    r = ::waitpid(-1, &ws, 0);
    if (r < 0 && errno == ECHILD) return;
  }
}

[[noreturn]] void EndBySignal(int sig) {
  ::signal(sig, SIG_DFL);
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, sig);
  ::sigprocmask(SIG_UNBLOCK, &s, nullptr);
  ::raise(sig);
  std::_Exit(128 + sig);
}

[[noreturn]] void EndLike(int wstatus) {
  if (WIFSIGNALED(wstatus)) EndBySignal(WTERMSIG(wstatus));
  std::_Exit(WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 1);
}

// Reaps whatever exited (the command, or orphans re-parented here); true once the command has.
bool ReapExited(pid_t command, int* status) {
  bool done = false;
  for (;;) {
    int ws = 0;
    pid_t r = ::waitpid(-1, &ws, WNOHANG);
    if (r <= 0) return done;
    if (r == command) {
      *status = ws;
      done = true;
    }
  }
}

}  // namespace

void RunReaped(char** argv) {
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) Die("PR_SET_CHILD_SUBREAPER");
  // Every signal the group gets (a process tool's HUP or USR1, a grace TERM) is the command's
  // business: blocked here, so the reaper outlives it and finishes the job.
  sigset_t all, old, chld;
  sigfillset(&all);
  ::sigprocmask(SIG_BLOCK, &all, &old);
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  const pid_t reaper = ::getpid();
  pid_t child = ::fork();
  if (child < 0) Die("fork");
  if (child == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != reaper) std::_Exit(127);
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
    ::execvp(argv[0], argv);
    std::fprintf(stderr, "%s: %s\n", argv[0], std::strerror(errno));
    std::_Exit(errno == ENOENT ? 127 : 126);
  }
  int status = 0;
  for (;;) {
    if (::sigwaitinfo(&chld, nullptr) == SIGCHLD && ReapExited(child, &status)) break;
  }
  KillDescendants();
  EndLike(status);
}

}  // namespace clawtools::sandbox
