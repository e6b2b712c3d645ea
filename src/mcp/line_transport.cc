#include "mcp/line_transport.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

namespace clawtools::mcp {
namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kStderrTailBytes = 2048;
// How long the I/O thread stays parked after the last caller left. Sequential calls come back
// well within it and find the reader role free; a notification arriving between calls waits
// at most this long.
constexpr auto kIoThreadGrace = std::chrono::milliseconds(10);
// A caller polls without sleeping this long before it sleeps: waking a thread that sleeps
// costs 20-40 us on a virtual CPU, more than a local server takes to answer. A wait in which
// that did not pay sleeps at once for the next few calls (a slow tool costs no spinning).
constexpr auto kSpin = std::chrono::microseconds(50);
constexpr int kSleepsAfterMiss = 8;

int PollTimeoutMs(Clock::time_point deadline) {
  if (deadline == Clock::time_point::max()) return -1;
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<decltype(ms)>(ms, 0, INT_MAX));
}

}  // namespace

LineTransport::LineTransport(UniqueFd read_fd, UniqueFd write_fd, UniqueFd stderr_fd,
                             LineTransportOptions options)
    : read_fd_(std::move(read_fd)),
      write_fd_(std::move(write_fd)),
      stderr_fd_(std::move(stderr_fd)),
      options_(std::move(options)) {}

LineTransport::~LineTransport() {
  Close();
}

Status LineTransport::Start(MessageHandler on_message, CloseHandler on_close) {
  int p[2];
  if (pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0) {
    return Fail(ErrorCode::kInternal, "cannot start the MCP transport", strerror(errno));
  }
  wake_read_.reset(p[0]);
  wake_write_.reset(p[1]);
  interrupt_.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!interrupt_) {
    return Fail(ErrorCode::kInternal, "cannot start the MCP transport", strerror(errno));
  }
  err_open_ = static_cast<bool>(stderr_fd_);
  on_message_ = std::move(on_message);
  on_close_ = std::move(on_close);
  started_ = true;
  thread_ = std::thread([this] { Run(); });
  return {};
}

Status LineTransport::Send(const Json& message) {
  std::string line = message.dump(-1, ' ', false, Json::error_handler_t::replace);
  line.push_back('\n');
  std::lock_guard lock(write_mu_);
  if (!write_fd_) return Fail(ErrorCode::kUnavailable, "connection to the MCP server is closed");
  size_t off = 0;
  while (off < line.size()) {
    ssize_t n = ::send(write_fd_.get(), line.data() + off, line.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK)
      n = ::write(write_fd_.get(), line.data() + off, line.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Fail(ErrorCode::kUnavailable,
                  "cannot write to the MCP server (" + options_.describe + ")", strerror(errno));
    }
    off += static_cast<size_t>(n);
  }
  return {};
}

void LineTransport::CloseInput() {
  std::lock_guard lock(write_mu_);
  write_fd_.reset();
}

Status LineTransport::SendRequest(const Json& request, const AnswerWait& wait) {
  if (auto st = Send(request); !st) return st;
  // Declared before the lock: its destructor waits for a running callback, which locks.
  std::stop_callback on_stop(wait.stop, [this] {
    Interrupt();
    std::lock_guard lock(read_mu_);
    read_cv_.notify_all();
  });
  std::unique_lock lock(read_mu_);
  if (!started_ || !wait.answered) return {};
  ++callers_;
  bool poked = false;
  while (!closing_ && !ended_ && !wait.stop.stop_requested() && Clock::now() < wait.deadline) {
    // answered() takes the session's lock, which is never held around calls into here.
    lock.unlock();
    bool answered = wait.answered();
    lock.lock();
    if (answered) break;
    if (!reading_) {
      reading_ = true;
      lock.unlock();
      Step step = ReadFor(wait);
      lock.lock();
      reading_ = false;
      if (step == Step::kEnd) ended_ = true;
      // Other callers wait for the role or for an answer this read may have brought.
      if (callers_ > 1) read_cv_.notify_all();
      continue;
    }
    // The I/O thread may sit in poll with nothing coming: ask it for the role.
    if (io_reading_ && !poked) {
      Interrupt();
      poked = true;
    }
    read_cv_.wait_until(lock, wait.deadline);
  }
  if (--callers_ == 0) callers_left_ = Clock::now();
  if (callers_ > 0) read_cv_.notify_all();
  // The end of the stream is the I/O thread's to report; Close() waits for the last caller.
  if (ended_ || closing_) {
    io_cv_.notify_all();
    read_cv_.notify_all();
  }
  return {};
}

void LineTransport::Interrupt() {
  uint64_t one = 1;
  ssize_t ignored = ::write(interrupt_.get(), &one, sizeof one);
  (void)ignored;
}

void LineTransport::Close() {
  closing_ = true;
  CloseInput();
  if (thread_.joinable()) {
    char c = 1;
    ssize_t ignored = ::write(wake_write_.get(), &c, 1);
    (void)ignored;
    {
      std::unique_lock lock(read_mu_);
      io_cv_.notify_all();
      read_cv_.notify_all();
      // Callers see the wake-up pipe or closing_ and leave; none may poll a closed fd.
      read_cv_.wait(lock, [&] { return callers_ == 0; });
    }
    thread_.join();
  }
  read_fd_.reset();
  stderr_fd_.reset();
}

std::string LineTransport::StderrTail() const {
  std::lock_guard lock(stderr_mu_);
  return stderr_tail_;
}

void LineTransport::HandleLine(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  if (line.empty()) return;
  Json v = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (v.is_discarded() || !(v.is_object() || v.is_array())) {
    if (options_.log) {
      options_.log->Event(
          LogLevel::kWarn, "mcp: non-JSON line from server skipped",
          {{"peer", options_.describe}, {"line", std::string(line.substr(0, 256))}});
    }
    return;
  }
  if (v.is_array()) {
    for (auto& m : v) on_message_(std::move(m));
  } else {
    on_message_(std::move(v));
  }
}

void LineTransport::HandleStderr(std::string_view chunk, bool flush) {
  std::vector<std::string> lines;
  {
    std::lock_guard lock(stderr_mu_);
    stderr_tail_.append(chunk);
    if (stderr_tail_.size() > kStderrTailBytes) {
      stderr_tail_.erase(0, stderr_tail_.size() - kStderrTailBytes);
    }
    stderr_partial_.append(chunk);
    size_t start = 0;
    for (size_t nl; (nl = stderr_partial_.find('\n', start)) != std::string::npos; start = nl + 1) {
      lines.emplace_back(stderr_partial_, start, nl - start);
    }
    stderr_partial_.erase(0, start);
    if (flush && !stderr_partial_.empty()) lines.push_back(std::exchange(stderr_partial_, {}));
    if (stderr_partial_.size() > 4096) lines.push_back(std::exchange(stderr_partial_, {}));
  }
  if (!options_.log) return;
  for (auto& l : lines) {
    if (stderr_logged_ >= options_.stderr_log_cap) return;
    stderr_logged_ += l.size();
    if (stderr_logged_ >= options_.stderr_log_cap) {
      options_.log->Event(LogLevel::kWarn,
                          "mcp server stderr: log cap reached, the rest is dropped",
                          {{"peer", options_.describe}, {"cap_bytes", options_.stderr_log_cap}});
      return;
    }
    options_.log->Event(LogLevel::kInfo, "mcp server stderr",
                        {{"peer", options_.describe}, {"line", l}});
  }
}

void LineTransport::Run() {
  for (;;) {
    {
      std::unique_lock lock(read_mu_);
      for (;;) {
        if (closing_ || ended_) break;
        if (callers_ > 0 || reading_) {
          // Timed: the last caller to leave does not wake this thread (that would cost the
          // wake-up the callers' reading saves); it looks again on its own.
          io_cv_.wait_for(lock, kIoThreadGrace);
          continue;
        }
        if (auto until = callers_left_ + kIoThreadGrace; Clock::now() < until) {
          io_cv_.wait_until(lock, until);
          continue;
        }
        break;
      }
      if (closing_) return;
      if (ended_) break;
      reading_ = io_reading_ = true;
    }
    Step step = PollOnce(-1);
    {
      std::lock_guard lock(read_mu_);
      reading_ = io_reading_ = false;
      if (step == Step::kEnd) ended_ = true;
    }
    read_cv_.notify_all();
    if (step == Step::kClosing) return;
    if (step == Step::kEnd) break;
  }
  ReportEnd();
}

LineTransport::Step LineTransport::ReadFor(const AnswerWait& wait) {
  if (spin_skip_ > 0) {
    --spin_skip_;
  } else {
    for (auto until = Clock::now() + kSpin;;) {
      Step step = PollOnce(0);
      if (step != Step::kAgain || wait.answered()) return step;
      if (Clock::now() >= until) break;
      // On a contended CPU, whoever else is runnable (the server, maybe) goes first.
      sched_yield();
    }
    spin_skip_ = kSleepsAfterMiss;
  }
  return PollOnce(PollTimeoutMs(wait.deadline));
}

LineTransport::Step LineTransport::PollOnce(int timeout_ms) {
  char chunk[65536];
  pollfd fds[4] = {{read_fd_.get(), POLLIN, 0},
                   {err_open_ ? stderr_fd_.get() : -1, POLLIN, 0},
                   {wake_read_.get(), POLLIN, 0},
                   {interrupt_.get(), POLLIN, 0}};
  int ready = ::poll(fds, 4, timeout_ms);
  if (ready < 0) {
    if (errno == EINTR) return Step::kAgain;
    end_reason_ = std::string("poll failed: ") + strerror(errno);
    return Step::kEnd;
  }
  if (ready == 0) return Step::kAgain;
  if (fds[2].revents) return Step::kClosing;
  if (fds[1].revents) {
    ssize_t n = ::read(stderr_fd_.get(), chunk, sizeof chunk);
    if (n > 0) {
      HandleStderr({chunk, static_cast<size_t>(n)}, false);
    } else if (n == 0 || errno != EINTR) {
      err_open_ = false;
    }
  }
  if (fds[0].revents) {
    ssize_t n = ::read(read_fd_.get(), chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) return Step::kAgain;
    if (n <= 0) {
      if (n < 0) end_reason_ = std::string("read failed: ") + strerror(errno);
      return Step::kEnd;
    }
    buf_.append(chunk, static_cast<size_t>(n));
    size_t start = 0;
    for (size_t nl; (nl = buf_.find('\n', start)) != std::string::npos; start = nl + 1) {
      HandleLine(std::string_view(buf_).substr(start, nl - start));
    }
    buf_.erase(0, start);
    if (buf_.size() > options_.max_line_bytes) {
      end_reason_ = "message larger than " + std::to_string(options_.max_line_bytes) + " bytes";
      return Step::kEnd;
    }
  }
  if (fds[3].revents) {
    uint64_t count;
    ssize_t ignored = ::read(interrupt_.get(), &count, sizeof count);
    (void)ignored;
  }
  return Step::kAgain;
}

void LineTransport::ReportEnd() {
  if (closing_) return;
  // The peer went away on its own. Drain what stderr still holds: it usually says why.
  char chunk[65536];
  while (err_open_) {
    pollfd p{stderr_fd_.get(), POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) break;
    ssize_t n = ::read(stderr_fd_.get(), chunk, sizeof chunk);
    if (n <= 0) break;
    HandleStderr({chunk, static_cast<size_t>(n)}, false);
  }
  HandleStderr({}, true);
  std::string detail = options_.exit_detail ? options_.exit_detail() : std::string();
  std::string message = "MCP server connection lost (" + options_.describe + ")";
  if (!end_reason_.empty()) message += ": " + end_reason_;
  if (!detail.empty()) message += ": " + detail;
  std::string tail = StderrTail();
  if (on_close_)
    on_close_(MakeError(ErrorCode::kUnavailable, message, message + "; stderr: " + tail));
}

}  // namespace clawtools::mcp
