#include "mcp/server_stdio.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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

// Runs queued calls; the destructor drains the queue and joins.
class WorkerPool {
 public:
  WorkerPool(size_t n, McpServerSession& session, Writer& out) : session_(session), out_(out) {
    for (size_t i = 0; i < std::max<size_t>(n, 1); ++i) threads_.emplace_back([this] { Run(); });
  }
  ~WorkerPool() {
    {
      std::lock_guard lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  void Post(Json message) {
    {
      std::lock_guard lock(mu_);
      queue_.push_back(std::move(message));
    }
    cv_.notify_one();
  }

 private:
  void Run() {
    for (;;) {
      Json m;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return done_ || !queue_.empty(); });
        if (queue_.empty()) return;
        m = std::move(queue_.front());
        queue_.pop_front();
      }
      out_.Write(session_.Handle(m));
    }
  }

  McpServerSession& session_;
  Writer& out_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Json> queue_;
  bool done_ = false;
  std::vector<std::thread> threads_;
};

bool IsCall(const Json& m) {
  return m.is_object() && m.contains("id") && m.value("method", "") == "tools/call";
}

}  // namespace

Status ServeStdio(McpServerSession& session, int in_fd, int out_fd, StdioServeOptions options) {
  Writer out(out_fd);
  WorkerPool pool(options.workers, session, out);
  std::string buf;
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(in_fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    // A client that closes a socket with our answer unread resets it: that is end of input too.
    if (n < 0 && errno == ECONNRESET) n = 0;
    if (n < 0) return Fail(ErrorCode::kUnavailable, std::string("stdin: ") + std::strerror(errno));
    if (n == 0) break;
    buf.append(chunk, static_cast<size_t>(n));
    size_t start = 0;
    for (size_t nl; (nl = buf.find('\n', start)) != std::string::npos; start = nl + 1) {
      std::string_view line(buf.data() + start, nl - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
      Json m = Json::parse(line, nullptr, false);
      if (m.is_discarded()) {
        out.Write(MakeErrorResponse(nullptr, rpc_code::kParseError, "invalid JSON"));
      } else if (IsCall(m)) {
        pool.Post(std::move(m));
      } else {
        out.Write(session.Handle(m));
      }
    }
    buf.erase(0, start);
    if (buf.size() > options.max_line_bytes) {
      return Fail(ErrorCode::kInvalidArgument, "stdin: message larger than the line limit");
    }
  }
  return {};
}

}  // namespace clawtools::mcp
