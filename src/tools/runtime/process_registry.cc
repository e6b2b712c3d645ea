#include "tools/runtime/process_registry.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "sandbox/byte_ring.h"

namespace clawtools {

struct ProcessRegistry::Entry {
  Entry(std::string id, std::string command, LaunchedCommand l, size_t buffer)
      : id(std::move(id)), command(std::move(command)), launched(std::move(l)), output(buffer) {
    output_fd = launched.process.TakeOutput();
    exited_fd.reset(static_cast<int>(::syscall(SYS_pidfd_open, launched.process.pid(), 0)));
    ::fcntl(launched.process.stdin_fd(), F_SETFL, O_NONBLOCK);
  }

  // Drains the output until EOF; the leader's exit kills the rest of its group (Process::TryWait).
  void Read(std::stop_token stop) {
    char buf[65536];
    while (!stop.stop_requested()) {
      pollfd fds[2] = {{output_fd.get(), POLLIN, 0}, {reaped ? -1 : exited_fd.get(), POLLIN, 0}};
      if (::poll(fds, 2, 200) < 0 && errno != EINTR) break;
      if (fds[1].revents & POLLIN) Reap();
      if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
        ssize_t n = ::read(output_fd.get(), buf, sizeof(buf));
        if (n > 0) {
          std::lock_guard lock(mu);
          output.Append(std::string_view(buf, static_cast<size_t>(n)));
        } else if (n == 0 || errno != EINTR) {
          break;
        }
      }
    }
    // Not under `mu`: a leader that closed its output may run on; Signal stays possible.
    int code = launched.process.Wait().ShellCode();
    std::lock_guard lock(mu);
    exit = code;
    reaped = true;
  }

  void Reap() {
    std::lock_guard lock(mu);
    if (auto s = launched.process.TryWait()) {
      exit = s->ShellCode();
      reaped = true;
    }
  }

  Info Describe() const {
    Info i{id,
           command,
           launched.where,
           !exit.has_value(),
           exit,
           output.end(),
           std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() -
                                                            started)};
    return i;
  }

  void KillNow() {
    std::lock_guard lock(mu);
    if (!reaped && launched.process.Signal(SIGKILL) && launched.after_kill) launched.after_kill();
  }

  const std::string id;
  const std::string command;
  const std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::optional<std::chrono::steady_clock::time_point> exited_at;

  mutable std::mutex mu;  // guards everything below
  LaunchedCommand launched;
  sandbox::ByteRing output;
  std::optional<int> exit;
  bool reaped = false;
  UniqueFd output_fd;
  UniqueFd exited_fd;
  std::jthread reader;  // last: joined first on destruction
};

ProcessRegistry::ProcessRegistry(ProcessLimits limits)
    : limits_(limits), janitor_([this](std::stop_token st) { Janitor(st); }) {}

ProcessRegistry::~ProcessRegistry() {
  janitor_.request_stop();
  janitor_cv_.notify_all();
  janitor_.join();
  std::map<std::pair<std::string, std::string>, std::shared_ptr<Entry>> all;
  {
    std::lock_guard lock(mu_);
    all.swap(entries_);
  }
  for (auto& [k, e] : all) e->KillNow();
  // Entry destructors join their readers, which reap.
}

Expected<std::string> ProcessRegistry::Add(const std::string& session, std::string command,
                                           LaunchedCommand launched) {
  std::lock_guard lock(mu_);
  size_t mine = 0;
  for (const auto& [k, e] : entries_) mine += k.first == session;
  if (mine >= limits_.max_per_session)
    return Fail(ErrorCode::kInvalidArgument,
                "too many background processes in this session (limit " +
                    std::to_string(limits_.max_per_session) + "); remove finished ones");
  if (entries_.size() >= limits_.max_total)
    return Fail(ErrorCode::kUnavailable, "too many background processes on this gateway (limit " +
                                             std::to_string(limits_.max_total) + ")");
  std::string id = "proc-" + std::to_string(next_id_++);
  auto e =
      std::make_shared<Entry>(id, std::move(command), std::move(launched), limits_.buffer_bytes);
  Entry* raw = e.get();
  e->reader = std::jthread([raw](std::stop_token st) { raw->Read(st); });
  entries_[{session, id}] = std::move(e);
  return id;
}

std::shared_ptr<ProcessRegistry::Entry> ProcessRegistry::Find(const std::string& session,
                                                              const std::string& id) const {
  std::lock_guard lock(mu_);
  auto it = entries_.find({session, id});
  return it == entries_.end() ? nullptr : it->second;
}

std::vector<ProcessRegistry::Info> ProcessRegistry::List(const std::string& session) const {
  std::vector<std::shared_ptr<Entry>> mine;
  {
    std::lock_guard lock(mu_);
    for (const auto& [k, e] : entries_)
      if (k.first == session) mine.push_back(e);
  }
  std::vector<Info> out;
  for (const auto& e : mine) {
    std::lock_guard lock(e->mu);
    out.push_back(e->Describe());
  }
  return out;
}

Expected<ProcessRegistry::Output> ProcessRegistry::Poll(const std::string& session,
                                                        const std::string& id, uint64_t offset,
                                                        size_t max_bytes) const {
  auto e = Find(session, id);
  if (!e) return Fail(ErrorCode::kNotFound, "no process " + id + " in this session");
  std::lock_guard lock(e->mu);
  auto slice = e->output.Read(offset, max_bytes);
  return Output{e->Describe(), std::move(slice.data), slice.offset, slice.dropped};
}

Expected<size_t> ProcessRegistry::Write(const std::string& session, const std::string& id,
                                        std::string_view data, bool eof) {
  auto e = Find(session, id);
  if (!e) return Fail(ErrorCode::kNotFound, "no process " + id + " in this session");
  std::lock_guard lock(e->mu);
  int fd = e->launched.process.stdin_fd();
  if (fd < 0) return Fail(ErrorCode::kInvalidArgument, "stdin of " + id + " is closed");
  size_t written = 0;
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  while (written < data.size()) {
    ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n > 0)
      written += static_cast<size_t>(n);
    else if (n < 0 && errno == EINTR)
      continue;
    else
      break;
  }
  const bool broken = written < data.size() && errno == EPIPE;
  sigset_t pending;
  if (broken && !sigismember(&old_set, SIGPIPE) && sigpending(&pending) == 0 &&
      sigismember(&pending, SIGPIPE)) {
    timespec zero{};
    ::sigtimedwait(&pipe_set, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  if (broken) {
    e->launched.process.CloseStdin();
    return Fail(ErrorCode::kInvalidArgument, "the process no longer reads stdin");
  }
  if (eof) e->launched.process.CloseStdin();
  return written;
}

Status ProcessRegistry::Signal(const std::string& session, const std::string& id, int sig) {
  auto e = Find(session, id);
  if (!e) return Fail(ErrorCode::kNotFound, "no process " + id + " in this session");
  std::lock_guard lock(e->mu);
  if (e->reaped || !e->launched.process.Signal(sig))
    return Fail(ErrorCode::kInvalidArgument, "process " + id + " has already exited");
  if (sig == SIGKILL && e->launched.after_kill) e->launched.after_kill();
  return {};
}

Status ProcessRegistry::Remove(const std::string& session, const std::string& id) {
  std::shared_ptr<Entry> e;
  {
    std::lock_guard lock(mu_);
    auto it = entries_.find({session, id});
    if (it == entries_.end())
      return Fail(ErrorCode::kNotFound, "no process " + id + " in this session");
    e = std::move(it->second);
    entries_.erase(it);
  }
  e->KillNow();
  return {};
}

void ProcessRegistry::CleanupSession(const std::string& session) {
  std::vector<std::shared_ptr<Entry>> gone;
  {
    std::lock_guard lock(mu_);
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->first.first == session) {
        gone.push_back(std::move(it->second));
        it = entries_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& e : gone) e->KillNow();
}

size_t ProcessRegistry::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

void ProcessRegistry::Janitor(std::stop_token stop) {
  std::mutex wait_mu;
  while (!stop.stop_requested()) {
    {
      std::unique_lock lk(wait_mu);
      janitor_cv_.wait_for(lk, stop, std::chrono::seconds(1), [] { return false; });
    }
    if (stop.stop_requested()) return;
    std::vector<std::shared_ptr<Entry>> expired, forget;
    auto now = std::chrono::steady_clock::now();
    {
      std::lock_guard lock(mu_);
      for (auto it = entries_.begin(); it != entries_.end();) {
        auto& e = it->second;
        std::lock_guard elock(e->mu);
        if (e->reaped && !e->exited_at) e->exited_at = now;
        if (e->exited_at && now - *e->exited_at > limits_.retain_exited) {
          forget.push_back(std::move(e));
          it = entries_.erase(it);
          continue;
        }
        if (!e->reaped && now - e->started > limits_.max_runtime) expired.push_back(e);
        ++it;
      }
    }
    for (auto& e : expired) e->KillNow();
  }
}

}  // namespace clawtools
