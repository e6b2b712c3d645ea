#include "mcp/server_stdio.h"

#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/unique_fd.h"
#include "mcp/jsonrpc.h"

namespace clawtools::mcp {
namespace {

class Writer {
 public:
  explicit Writer(int fd) : fd_(fd) {}
  void Write(const Json& message) {
    if (message.is_null()) return;
    std::string line = message.dump(-1, ' ', false, Json::error_handler_t::replace);
    line.push_back('\n');
    std::lock_guard lock(mu_);
    const char* p = line.data();
    size_t left = line.size();
    while (left > 0) {
      // A client that went away must end the session, not kill the process with SIGPIPE.
      ssize_t n = ::send(fd_, p, left, MSG_NOSIGNAL);
      if (n < 0 && errno == ENOTSOCK) n = ::write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;  // the client went away; reading will see EOF
      p += n;
      left -= static_cast<size_t>(n);
    }
  }

 private:
  int fd_;
  std::mutex mu_;
};

// A thread that has just answered polls without sleeping this long for the next message:
// waking a thread that sleeps costs 20-40 us on a virtual CPU, more than a client takes to
// send its next request. A wait in which that did not pay sleeps at once the next few times.
constexpr auto kSpin = std::chrono::microseconds(50);
constexpr int kSleepsAfterMiss = 8;

bool IsCall(const Json& m) {
  return m.is_object() && m.contains("id") && m.value("method", "") == "tools/call";
}

// Leader/follower over one epoll set: every thread waits in epoll_wait, and the kernel wakes
// exactly one of them per event (epoll waiters are exclusive). The thread woken for input reads
// it, answers what is quick inline and runs the first call itself, after re-arming the input
// for the next thread: a call costs one thread wake-up, where handing it from a reader thread
// to a worker cost two. While calls run, idle threads keep reading, so ping and
// notifications/cancelled still get through; one thread more than `workers` guarantees that.
class Server {
 public:
  Server(McpServerSession& session, int in_fd, int out_fd, const StdioServeOptions& options)
      : session_(session),
        in_fd_(in_fd),
        out_(out_fd),
        max_calls_(std::max<size_t>(options.workers, 1)),
        max_line_bytes_(options.max_line_bytes) {}

  Status Run() {
    epoll_.reset(::epoll_create1(EPOLL_CLOEXEC));
    kick_.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    if (!epoll_ || !kick_) return Fail(ErrorCode::kInternal, "stdio server", strerror(errno));
    epoll_event kick{.events = EPOLLIN, .data = {.u32 = kKick}};
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, kick_.get(), &kick) != 0) {
      return Fail(ErrorCode::kInternal, "stdio server", strerror(errno));
    }
    // One-shot: the woken thread owns the input until it re-arms it.
    epoll_event in{.events = EPOLLIN | EPOLLONESHOT, .data = {.u32 = kInput}};
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, in_fd_, &in) != 0) {
      // A regular file (`serve < requests.jsonl`) cannot be polled and never blocks: the
      // kick stands in for "input is waiting".
      if (errno != EPERM) return Fail(ErrorCode::kUnavailable, "stdin", strerror(errno));
      in_pollable_ = false;
    }
    {
      std::lock_guard lock(mu_);
      UpdateKick();
    }
    std::vector<std::thread> threads;
    for (size_t i = 0; i < max_calls_ + 1; ++i) threads.emplace_back([this] { Loop(); });
    for (auto& t : threads) t.join();
    return status_;
  }

 private:
  static constexpr uint32_t kKick = 0, kInput = 1;

  void Loop() {
    bool worked = false;  // this thread has just handled input or run a call
    for (;;) {
      epoll_event ev;
      int n = worked ? Spin(ev) : 0;
      if (n == 0) n = ::epoll_wait(epoll_.get(), &ev, 1, -1);
      if (n < 0 && errno == EINTR) continue;
      bool take_input = false;
      {
        std::lock_guard lock(mu_);
        if (n < 0) {
          EndInput(Fail(ErrorCode::kInternal, "stdio server", strerror(errno)));
          return;
        }
        if (Finished()) return;
        if (ev.data.u32 == kInput) {
          take_input = true;
        } else if (!in_pollable_ && !input_done_ && !input_busy_) {
          take_input = input_busy_ = true;
          UpdateKick();
        }
      }
      Json call;
      if (take_input) call = ReadInput();
      worked = RunCalls(std::move(call)) || take_input;
    }
  }

  // epoll_wait without sleeping for up to kSpin; 0 when nothing came.
  int Spin(epoll_event& ev) {
    if (spin_skip_.load(std::memory_order_relaxed) > 0) {
      spin_skip_.fetch_sub(1, std::memory_order_relaxed);
      return 0;
    }
    for (auto until = std::chrono::steady_clock::now() + kSpin;;) {
      int n = ::epoll_wait(epoll_.get(), &ev, 1, 0);
      if (n != 0) return n;
      if (std::chrono::steady_clock::now() >= until) break;
      // On a contended CPU, whoever else is runnable (the client, maybe) goes first.
      sched_yield();
    }
    spin_skip_.store(kSleepsAfterMiss, std::memory_order_relaxed);
    return 0;
  }

  // Reads what is there, answers everything but calls, and returns the first call for this
  // thread to run (null when there is none or enough calls run already); other calls queue.
  Json ReadInput() {
    std::vector<Json> calls;
    std::optional<Status> end;
    {
      std::lock_guard in_lock(in_mu_);
      char chunk[65536];
      ssize_t n = ::read(in_fd_, chunk, sizeof chunk);
      // A client that closes a socket with our answer unread resets it: that is end of input.
      if (n < 0 && errno == ECONNRESET) n = 0;
      if (n < 0 && errno != EINTR && errno != EAGAIN) {
        end = Fail(ErrorCode::kUnavailable, std::string("stdin: ") + std::strerror(errno));
      } else if (n == 0) {
        end = Status{};
      } else if (n > 0) {
        buf_.append(chunk, static_cast<size_t>(n));
        size_t start = 0;
        for (size_t nl; (nl = buf_.find('\n', start)) != std::string::npos; start = nl + 1) {
          std::string_view line(buf_.data() + start, nl - start);
          if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
          if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
          Json m = Json::parse(line, nullptr, false);
          if (m.is_discarded()) {
            out_.Write(MakeErrorResponse(nullptr, rpc_code::kParseError, "invalid JSON"));
          } else if (IsCall(m)) {
            calls.push_back(std::move(m));
          } else {
            out_.Write(session_.Handle(m));
          }
        }
        buf_.erase(0, start);
        if (buf_.size() > max_line_bytes_) {
          end = Fail(ErrorCode::kInvalidArgument, "stdin: message larger than the line limit");
        }
      }
    }
    Json mine;
    {
      std::lock_guard lock(mu_);
      for (auto& c : calls) {
        if (mine.is_null() && running_ < max_calls_) {
          mine = std::move(c);
          ++running_;
        } else {
          queue_.push_back(std::move(c));
        }
      }
      if (end) {
        EndInput(std::move(*end));
      } else {
        input_busy_ = false;
        UpdateKick();
      }
    }
    if (!end && in_pollable_) {
      epoll_event in{.events = EPOLLIN | EPOLLONESHOT, .data = {.u32 = kInput}};
      if (::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, in_fd_, &in) != 0) {
        std::lock_guard lock(mu_);
        EndInput(Fail(ErrorCode::kInternal, "stdio server", strerror(errno)));
      }
    }
    return mine;
  }

  // Runs `call` (already counted in running_) when not null, then queued calls while the
  // limit allows. True when it ran any.
  bool RunCalls(Json call) {
    bool ran = false;
    for (;;) {
      if (!call.is_null()) {
        out_.Write(session_.Handle(call));
        ran = true;
      }
      std::lock_guard lock(mu_);
      if (!call.is_null()) --running_;
      if (queue_.empty() || running_ >= max_calls_) {
        UpdateKick();
        return ran;
      }
      call = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
      UpdateKick();
    }
  }

  // mu_ held.
  void EndInput(Status status) {
    if (!input_done_ && !status) status_ = std::move(status);
    input_done_ = true;
    UpdateKick();
  }
  bool Finished() const { return input_done_ && queue_.empty() && running_ == 0; }

  // The kick is readable exactly while an idle thread has something to do, so none spins on
  // it: queued calls it may run, input to read from an unpollable stdin, or the end (all go).
  void UpdateKick() {
    bool want = Finished() || (!queue_.empty() && running_ < max_calls_) ||
                (!in_pollable_ && !input_done_ && !input_busy_);
    if (want == kick_set_) return;
    uint64_t v = 1;
    ssize_t ignored = want ? ::write(kick_.get(), &v, sizeof v) : ::read(kick_.get(), &v, sizeof v);
    (void)ignored;
    kick_set_ = want;
  }

  McpServerSession& session_;
  const int in_fd_;
  std::atomic<int> spin_skip_{0};  // waits left that sleep without spinning first
  Writer out_;
  const size_t max_calls_;
  const size_t max_line_bytes_;
  UniqueFd epoll_, kick_;
  bool in_pollable_ = true;

  std::mutex in_mu_;  // the partial line; the one-shot input makes it uncontended
  std::string buf_;

  std::mutex mu_;
  std::deque<Json> queue_;
  size_t running_ = 0;
  bool input_done_ = false;
  bool input_busy_ = false;  // unpollable input: a thread is reading it
  bool kick_set_ = false;
  Status status_;
};

}  // namespace

Status ServeStdio(McpServerSession& session, int in_fd, int out_fd, StdioServeOptions options) {
  return Server(session, in_fd, out_fd, options).Run();
}

}  // namespace clawtools::mcp
