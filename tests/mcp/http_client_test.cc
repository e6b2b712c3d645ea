// HttpClient against a loopback HTTP/1.1 server that counts its connections: keep-alive across
// exchanges, an SSE answer that ends right after the answer keeps its connection, one that
// stays open is cut, and stop tokens, Interrupt() and deadlines end a stalled exchange at once.
#include "mcp/http_client.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/unique_fd.h"

namespace clawtools::mcp {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

enum class Reply {
  kJson,         // Content-Length body, keep-alive
  kSseThenEnd,   // one SSE event, then (1 ms later) the terminating chunk
  kSseStaysOpen  // one SSE event, then nothing until the client goes away
};

bool SendAll(int fd, std::string_view s) {
  while (!s.empty()) {
    ssize_t n = ::send(fd, s.data(), s.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    s.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::string Chunk(std::string_view s) {
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", s.size());
  return size + std::string(s) + "\r\n";
}

class LoopbackServer {
 public:
  explicit LoopbackServer(Reply reply) : reply_(reply) {
    listen_fd_.reset(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(listen_fd_.get(), reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
        ::listen(listen_fd_.get(), 16) != 0 ||
        ::getsockname(listen_fd_.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      ADD_FAILURE() << "cannot listen on loopback";
      return;
    }
    url_ = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/mcp";
    acceptor_ = std::thread([this] { Accept(); });
  }
  ~LoopbackServer() {
    stop_ = true;
    acceptor_.join();
    std::lock_guard lock(mu_);
    for (auto& t : connections_) t.join();
  }

  const std::string& url() const { return url_; }
  int connections() const { return accepted_; }
  int requests() const { return requests_; }

 private:
  void Accept() {
    while (!stop_) {
      pollfd p{listen_fd_.get(), POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      UniqueFd fd(::accept4(listen_fd_.get(), nullptr, nullptr, SOCK_CLOEXEC));
      if (!fd) continue;
      // As servers do: without it the end of a stream written after its event waits for the
      // client's delayed ACK (Nagle), 40 ms.
      int one = 1;
      ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      ++accepted_;
      std::lock_guard lock(mu_);
      connections_.emplace_back([this, fd = std::move(fd)]() mutable { Serve(fd.get()); });
    }
  }

  // Waits for input or the end of the test; false when the client went away.
  bool Readable(int fd) {
    while (!stop_) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 20) > 0) return true;
    }
    return false;
  }

  void Serve(int fd) {
    std::string buf;
    char chunk[4096];
    for (;;) {
      size_t end;
      while ((end = buf.find("\r\n\r\n")) == std::string::npos) {
        if (!Readable(fd)) return;
        ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0) return;
        buf.append(chunk, static_cast<size_t>(n));
      }
      size_t length = 0;
      if (size_t cl = buf.find("Content-Length: "); cl != std::string::npos && cl < end) {
        length = std::stoul(buf.substr(cl + 16));
      }
      while (buf.size() < end + 4 + length) {
        if (!Readable(fd)) return;
        ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0) return;
        buf.append(chunk, static_cast<size_t>(n));
      }
      buf.erase(0, end + 4 + length);
      ++requests_;
      const std::string event = "event: message\ndata: {\"n\":1}\n\n";
      switch (reply_) {
        case Reply::kJson:
          SendAll(fd,
                  "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                  "Content-Length: 7\r\n\r\n{\"n\":1}");
          break;
        case Reply::kSseThenEnd:
          SendAll(fd,
                  "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                  "Transfer-Encoding: chunked\r\n\r\n" +
                      Chunk(event));
          std::this_thread::sleep_for(1ms);
          SendAll(fd, "0\r\n\r\n");
          break;
        case Reply::kSseStaysOpen:
          SendAll(fd,
                  "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                  "Transfer-Encoding: chunked\r\n\r\n" +
                      Chunk(event));
          // Until the client closes the connection.
          while (Readable(fd) && ::recv(fd, chunk, sizeof chunk, 0) > 0) {
          }
          return;
      }
    }
  }

  Reply reply_;
  UniqueFd listen_fd_;
  std::string url_;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0}, requests_{0};
  std::thread acceptor_;
  std::mutex mu_;
  std::vector<std::thread> connections_;
};

HttpRequest Post(const std::string& url) {
  return {.method = "POST", .url = url, .body = R"({"jsonrpc":"2.0","id":1,"method":"ping"})"};
}

TEST(HttpClient, KeepsItsConnectionAcrossExchanges) {
  LoopbackServer server(Reply::kJson);
  HttpClient client;
  for (int i = 0; i < 20; ++i) {
    std::string body;
    auto st = client.Perform(Post(server.url()), {.on_data = [&](std::string_view d) {
                               body += d;
                               return true;
                             }});
    ASSERT_TRUE(st) << st.error().for_model;
    EXPECT_EQ(*st, 200);
    EXPECT_EQ(body, R"({"n":1})");
  }
  EXPECT_EQ(server.requests(), 20);
  EXPECT_EQ(server.connections(), 1);
}

TEST(HttpClient, SatisfiedSseAnswerThatEndsKeepsTheConnection) {
  LoopbackServer server(Reply::kSseThenEnd);
  HttpClient client;
  for (int i = 0; i < 5; ++i) {
    bool got = false;
    auto st = client.Perform(Post(server.url()), {.on_data =
                                                      [&](std::string_view d) {
                                                        got |= d.find("data:") != d.npos;
                                                        return true;
                                                      },
                                                  .satisfied = [&] { return got; }});
    ASSERT_TRUE(st) << st.error().for_model;
    EXPECT_TRUE(got);
  }
  EXPECT_EQ(server.connections(), 1);
}

TEST(HttpClient, SatisfiedSseAnswerThatStaysOpenIsCut) {
  LoopbackServer server(Reply::kSseStaysOpen);
  HttpClient client;
  for (int i = 0; i < 3; ++i) {
    bool got = false;
    auto start = Clock::now();
    auto st = client.Perform(Post(server.url()), {.on_data =
                                                      [&](std::string_view d) {
                                                        got |= d.find("data:") != d.npos;
                                                        return true;
                                                      },
                                                  .satisfied = [&] { return got; }});
    ASSERT_TRUE(st) << st.error().for_model;
    EXPECT_EQ(*st, 200);
    EXPECT_LT(Clock::now() - start, 500ms);
  }
  // A cut exchange's connection cannot carry another request.
  EXPECT_EQ(server.connections(), 3);
}

// A stalled answer stream: the head and one event, then silence.
class Stalled : public ::testing::Test {
 protected:
  LoopbackServer server_{Reply::kSseStaysOpen};
  HttpClient client_;
  HttpHandlers handlers_{.on_data = [](std::string_view) { return true; }};
};

TEST_F(Stalled, StopTokenEndsTheExchangeAtOnce) {
  std::stop_source stop;
  std::thread stopper([&] {
    std::this_thread::sleep_for(100ms);
    stop.request_stop();
  });
  auto start = Clock::now();
  // The deadline only turns a regression into a failure instead of a hang.
  auto st = client_.Perform(Post(server_.url()), handlers_,
                            {.token = stop.get_token(), .deadline = Clock::now() + 3s});
  auto took = Clock::now() - start;
  stopper.join();
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, ErrorCode::kCancelled);
  EXPECT_LT(took, 400ms);
}

TEST_F(Stalled, InterruptMakesTheExchangeSeeItsStopFlag) {
  std::atomic<bool> flag{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(100ms);
    flag = true;
    client_.Interrupt();
  });
  auto start = Clock::now();
  auto st =
      client_.Perform(Post(server_.url()), handlers_, {.stop = &flag, .deadline = start + 3s});
  auto took = Clock::now() - start;
  stopper.join();
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, ErrorCode::kCancelled);
  EXPECT_LT(took, 400ms);
}

TEST_F(Stalled, DeadlineEndsTheExchange) {
  auto start = Clock::now();
  auto st = client_.Perform(Post(server_.url()), handlers_, {.deadline = start + 150ms});
  auto took = Clock::now() - start;
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, ErrorCode::kDeadlineExceeded);
  EXPECT_GE(took, 150ms);
  EXPECT_LT(took, 500ms);
}

TEST(HttpClient, RefusedConnectionIsUnavailable) {
  std::string url;
  {
    LoopbackServer gone(Reply::kJson);
    url = gone.url();
  }
  auto st = HttpClient().Perform(Post(url), {});
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace clawtools::mcp
