#include "sandbox/run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace clawtools::sandbox {

RunOutcome RunToCompletion(Process& proc, const RunLimits& limits) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  RunOutcome out;
  ByteRing tail(limits.tail_bytes);

  // Cancellation wakes the poll through an eventfd.
  UniqueFd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  std::stop_callback on_stop(limits.stop, [&] {
    uint64_t one = 1;
    (void)!::write(wake.get(), &one, sizeof(one));
  });

  // The leader's exit is an event too: a background grandchild (`sleep 100 &`) may hold the
  // output pipe open forever, and the group is killed as soon as the leader is gone.
  UniqueFd exited(static_cast<int>(::syscall(SYS_pidfd_open, proc.pid(), 0)));

  size_t stdin_off = 0;
  if (limits.stdin_data.empty())
    proc.CloseStdin();
  else
    ::fcntl(proc.stdin_fd(), F_SETFL, O_NONBLOCK);
  // A child that exits without reading must not kill us with SIGPIPE: block it for this thread,
  // take EPIPE, and consume the pending signal before unblocking.
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);

  bool output_open = true;
  char buf[65536];
  while (output_open) {
    if (limits.stop.stop_requested()) {
      out.cancelled = true;
      break;
    }
    auto now = Clock::now();
    if (now >= limits.deadline) {
      out.timed_out = true;
      break;
    }
    int timeout_ms = -1;
    if (limits.deadline != Clock::time_point::max()) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(limits.deadline - now);
      timeout_ms = static_cast<int>(std::clamp<int64_t>(left.count() + 1, 1, 1 << 30));
    }
    pollfd fds[4] = {{proc.output_fd(), POLLIN, 0},
                     {wake.get(), POLLIN, 0},
                     {-1, POLLOUT, 0},
                     {proc.exited() ? -1 : exited.get(), POLLIN, 0}};
    if (proc.stdin_fd() >= 0) fds[2].fd = proc.stdin_fd();
    int n = ::poll(fds, 4, timeout_ms);
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    if (fds[3].revents & POLLIN) proc.TryWait();  // kills the rest of the group; EOF follows
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t r = ::read(proc.output_fd(), buf, sizeof(buf));
      if (r > 0) {
        std::string_view chunk(buf, static_cast<size_t>(r));
        out.total_bytes += chunk.size();
        size_t room = limits.head_bytes - std::min(limits.head_bytes, out.head.size());
        out.head.append(chunk.substr(0, std::min(room, chunk.size())));
        if (chunk.size() > room) tail.Append(chunk.substr(room));
      } else if (r == 0 || errno != EINTR) {
        output_open = false;
      }
    }
    if (fds[2].fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t w = ::write(proc.stdin_fd(), limits.stdin_data.data() + stdin_off,
                          limits.stdin_data.size() - stdin_off);
      if (w > 0) stdin_off += static_cast<size_t>(w);
      if ((w < 0 && errno != EAGAIN && errno != EINTR) || stdin_off == limits.stdin_data.size())
        proc.CloseStdin();
    }
  }
  proc.CloseStdin();
  sigset_t pending;
  if (!sigismember(&old_set, SIGPIPE) && sigpending(&pending) == 0 &&
      sigismember(&pending, SIGPIPE)) {
    timespec zero{};
    ::sigtimedwait(&pipe_set, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old_set, nullptr);

  if (out.timed_out || out.cancelled) {
    out.status = proc.KillGroup(limits.kill_grace);
  } else {
    // Output closed: the leader has exited or closed its end. Wait for it, bounded by the
    // deadline and cancellation.
    while (!proc.TryWait()) {
      pollfd fds[2] = {{exited.get(), POLLIN, 0}, {wake.get(), POLLIN, 0}};
      auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(limits.deadline - Clock::now());
      if (left.count() <= 0) out.timed_out = true;
      if (limits.stop.stop_requested()) out.cancelled = true;
      if (out.timed_out || out.cancelled) break;
      ::poll(fds, 2, static_cast<int>(std::min<int64_t>(left.count() + 1, 1 << 30)));
    }
    out.status = (out.timed_out || out.cancelled) ? proc.KillGroup(limits.kill_grace) : proc.Wait();
  }
  out.tail = tail.Contents();
  out.duration = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  return out;
}

}  // namespace clawtools::sandbox
