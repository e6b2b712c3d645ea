// ServeStdio's threads: calls run concurrently up to `workers` while ping and cancellation still
// get through, many clients threads share one connection, and a regular file (which cannot be
// polled) works as input.
#include "mcp/server_stdio.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "core/unique_fd.h"
#include "mcp/client.h"
#include "mcp/jsonrpc.h"
#include "mcp/line_transport.h"

namespace clawtools::mcp {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class Backend final : public ToolBackend {
 public:
  Json ListTools() const override { return Json::array(); }
  Expected<Result> CallTool(const std::string& name, const Json& args,
                            std::stop_token stop) const override {
    if (name == "echo") return Result::Text(args.value("text", ""));
    if (name == "sleep") {
      auto until = Clock::now() + std::chrono::milliseconds(args.value("ms", 0));
      while (Clock::now() < until && !stop.stop_requested()) std::this_thread::sleep_for(1ms);
      return Result::Text(stop.stop_requested() ? "stopped" : "slept");
    }
    return Fail(ErrorCode::kNotFound, "no tool " + name);
  }
};

Json Call(int id, const std::string& tool, Json args) {
  return MakeRequest(id, "tools/call", {{"name", tool}, {"arguments", std::move(args)}});
}

// A server on one end of a socketpair, driven by raw lines from the other.
class RawServer {
 public:
  RawServer() : session_(std::make_shared<Backend>(), {}) {
    int sv[2];
    ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
    client_.reset(sv[0]);
    server_.reset(sv[1]);
    thread_ = std::thread([this] { status_ = ServeStdio(session_, server_.get(), server_.get()); });
    Send(MakeRequest(0, "initialize", {{"protocolVersion", "2025-11-25"}}));
    EXPECT_EQ(Read()["id"], 0);
  }
  ~RawServer() {
    ::shutdown(client_.get(), SHUT_WR);
    thread_.join();
  }

  void Send(const Json& j) {
    std::string line = j.dump() + "\n";
    ASSERT_EQ(::send(client_.get(), line.data(), line.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(line.size()));
  }
  // The next answer line.
  Json Read() {
    size_t nl;
    while ((nl = buf_.find('\n')) == std::string::npos) {
      char chunk[4096];
      ssize_t n = ::recv(client_.get(), chunk, sizeof chunk, 0);
      if (n <= 0) return nullptr;
      buf_.append(chunk, static_cast<size_t>(n));
    }
    Json j = Json::parse(buf_.substr(0, nl));
    buf_.erase(0, nl + 1);
    return j;
  }

 private:
  McpServerSession session_;
  UniqueFd client_, server_;
  std::string buf_;
  Status status_;
  std::thread thread_;
};

TEST(ServeStdioThreads, CallsRunConcurrentlyAndPingIsNotHeldUp) {
  RawServer s;
  auto start = Clock::now();
  for (int id = 1; id <= 3; ++id) s.Send(Call(id, "sleep", {{"ms", 400}}));
  s.Send(MakeRequest(10, "ping"));
  Json first = s.Read();
  EXPECT_EQ(first["id"], 10) << first.dump();
  EXPECT_LT(Clock::now() - start, 300ms);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(s.Read()["result"]["content"][0]["text"], "slept");
  // Three 400 ms calls one after the other would take 1.2 s.
  EXPECT_LT(Clock::now() - start, 1000ms);
}

TEST(ServeStdioThreads, CancellationReachesARunningCall) {
  RawServer s;
  s.Send(Call(1, "sleep", {{"ms", 10000}}));
  std::this_thread::sleep_for(50ms);
  auto start = Clock::now();
  s.Send(MakeNotification("notifications/cancelled", {{"requestId", 1}}));
  EXPECT_EQ(s.Read()["result"]["content"][0]["text"], "stopped");
  EXPECT_LT(Clock::now() - start, 1s);
}

TEST(ServeStdioThreads, CallsBeyondTheWorkerLimitQueue) {
  RawServer s;  // 4 workers
  auto start = Clock::now();
  for (int id = 1; id <= 6; ++id) s.Send(Call(id, "sleep", {{"ms", 300}}));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(s.Read()["result"]["content"][0]["text"], "slept");
  auto took = Clock::now() - start;
  EXPECT_GE(took, 600ms);  // two rounds: at most 4 at once
  EXPECT_LT(took, 1500ms);
}

TEST(ServeStdioThreads, ManyClientThreadsShareOneConnection) {
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  UniqueFd server_end(sv[1]);
  McpServerSession session(std::make_shared<Backend>(), {});
  std::thread server([&] { EXPECT_TRUE(ServeStdio(session, server_end.get(), server_end.get())); });
  {
    UniqueFd w(sv[0]);
    UniqueFd r(::dup(sv[0]));
    auto client = McpClient::Connect(
        std::make_unique<LineTransport>(std::move(r), std::move(w), UniqueFd(),
                                        LineTransportOptions{.describe = "threads"}),
        {});
    ASSERT_TRUE(client) << client.error().for_model;
    std::atomic<int> wrong{0};
    std::vector<std::thread> callers;
    for (int t = 0; t < 6; ++t) {
      callers.emplace_back([&, t] {
        for (int i = 0; i < 150; ++i) {
          std::string text = std::to_string(t) + ":" + std::to_string(i);
          Json args = i % 25 == 0 ? Json{{"ms", 2}} : Json{{"text", text}};
          auto r = (*client)->CallTool(i % 25 == 0 ? "sleep" : "echo", args,
                                       {.deadline = Clock::now() + 10s});
          std::string want = i % 25 == 0 ? "slept" : text;
          if (!r || (*r)["content"][0]["text"] != want) ++wrong;
        }
      });
    }
    for (auto& c : callers) c.join();
    EXPECT_EQ(wrong.load(), 0);
    (*client)->Close();
  }
  ::shutdown(server_end.get(), SHUT_RDWR);
  server.join();
}

TEST(ServeStdioThreads, ReadsARegularFile) {
  char path[] = "/tmp/serve_stdio_inputXXXXXX";
  UniqueFd in(::mkstemp(path));
  ASSERT_TRUE(in);
  ::unlink(path);
  std::string lines = MakeRequest(0, "initialize", {{"protocolVersion", "2025-11-25"}}).dump() +
                      "\n" + MakeRequest(1, "ping").dump() + "\nnot json\n";
  for (int id = 2; id <= 9; ++id) lines += Call(id, "echo", {{"text", "x"}}).dump() + "\n";
  ASSERT_EQ(::write(in.get(), lines.data(), lines.size()), static_cast<ssize_t>(lines.size()));
  ASSERT_EQ(::lseek(in.get(), 0, SEEK_SET), 0);
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  UniqueFd out(sv[0]), reader(sv[1]);
  McpServerSession session(std::make_shared<Backend>(), {});
  auto st = ServeStdio(session, in.get(), out.get());  // returns at end of the file
  ASSERT_TRUE(st) << st.error().for_model;
  out.reset();
  std::string all;
  char chunk[4096];
  for (ssize_t n; (n = ::recv(reader.get(), chunk, sizeof chunk, 0)) > 0;) {
    all.append(chunk, static_cast<size_t>(n));
  }
  std::vector<Json> answers;
  for (size_t start = 0, nl; (nl = all.find('\n', start)) != std::string::npos; start = nl + 1) {
    answers.push_back(Json::parse(all.substr(start, nl - start)));
  }
  ASSERT_EQ(answers.size(), 11u);
  // Everything but calls is answered inline, in order.
  EXPECT_EQ(answers[0]["id"], 0);
  EXPECT_EQ(answers[1]["id"], 1);
  EXPECT_EQ(answers[2]["error"]["code"], rpc_code::kParseError);
  int calls = 0;
  for (size_t i = 3; i < answers.size(); ++i) {
    calls += answers[i]["result"]["content"][0]["text"] == "x";
  }
  EXPECT_EQ(calls, 8);
}

}  // namespace
}  // namespace clawtools::mcp
