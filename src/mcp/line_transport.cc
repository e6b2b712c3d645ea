#include "mcp/line_transport.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

namespace clawtools::mcp {
namespace {

constexpr size_t kStderrTailBytes = 2048;

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
  on_message_ = std::move(on_message);
  on_close_ = std::move(on_close);
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

void LineTransport::Close() {
  closing_ = true;
  CloseInput();
  if (thread_.joinable()) {
    char c = 1;
    ssize_t ignored = ::write(wake_write_.get(), &c, 1);
    (void)ignored;
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
  std::string buf;
  char chunk[65536];
  bool out_open = true, err_open = static_cast<bool>(stderr_fd_);
  std::string eof_reason;
  while (out_open && !closing_) {
    pollfd fds[3] = {{read_fd_.get(), POLLIN, 0},
                     {err_open ? stderr_fd_.get() : -1, POLLIN, 0},
                     {wake_read_.get(), POLLIN, 0}};
    if (::poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      eof_reason = std::string("poll failed: ") + strerror(errno);
      break;
    }
    if (fds[2].revents) break;
    if (fds[1].revents) {
      ssize_t n = ::read(stderr_fd_.get(), chunk, sizeof chunk);
      if (n > 0) {
        HandleStderr({chunk, static_cast<size_t>(n)}, false);
      } else if (n == 0 || errno != EINTR) {
        err_open = false;
      }
    }
    if (fds[0].revents) {
      ssize_t n = ::read(read_fd_.get(), chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        out_open = false;
        if (n < 0) eof_reason = std::string("read failed: ") + strerror(errno);
        break;
      }
      buf.append(chunk, static_cast<size_t>(n));
      size_t start = 0;
      for (size_t nl; (nl = buf.find('\n', start)) != std::string::npos; start = nl + 1) {
        HandleLine(std::string_view(buf).substr(start, nl - start));
      }
      buf.erase(0, start);
      if (buf.size() > options_.max_line_bytes) {
        eof_reason = "message larger than " + std::to_string(options_.max_line_bytes) + " bytes";
        break;
      }
    }
  }
  if (closing_) return;
  // The peer went away on its own. Drain what stderr still holds: it usually says why.
  while (err_open) {
    pollfd p{stderr_fd_.get(), POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) break;
    ssize_t n = ::read(stderr_fd_.get(), chunk, sizeof chunk);
    if (n <= 0) break;
    HandleStderr({chunk, static_cast<size_t>(n)}, false);
  }
  HandleStderr({}, true);
  std::string detail = options_.exit_detail ? options_.exit_detail() : std::string();
  std::string message = "MCP server connection lost (" + options_.describe + ")";
  if (!eof_reason.empty()) message += ": " + eof_reason;
  if (!detail.empty()) message += ": " + detail;
  std::string tail = StderrTail();
  if (on_close_)
    on_close_(MakeError(ErrorCode::kUnavailable, message, message + "; stderr: " + tail));
}

}  // namespace clawtools::mcp
