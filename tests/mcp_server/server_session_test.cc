// McpServerSession over a fake backend, and ServeStdio driven by our own McpClient.
#include "mcp/server_session.h"

#include <gtest/gtest.h>
#include <sys/socket.h>

#include <thread>

#include "mcp/client.h"
#include "mcp/line_transport.h"
#include "mcp/server_stdio.h"

namespace clawtools::mcp {
namespace {

class FakeBackend final : public ToolBackend {
 public:
  Json ListTools() const override {
    Json out = Json::array();
    for (int i = 0; i < 5; ++i) {
      out.push_back({{"name", "t" + std::to_string(i)},
                     {"description", "d"},
                     {"inputSchema", {{"type", "object"}}}});
    }
    return out;
  }
  Expected<Result> CallTool(const std::string& name, const Json& args,
                            std::stop_token stop) const override {
    if (name == "echo") return Result::Text(args.value("text", ""));
    if (name == "fail") return Result::Fail("boom");
    if (name == "wait") {
      while (!stop.stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return Result::Fail("cancelled", ErrorCode::kCancelled);
    }
    return Fail(ErrorCode::kNotFound, "no tool " + name);
  }
};

Json Req(int id, std::string method, Json params = Json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

McpServerSession MakeSession(size_t page = 2) {
  return McpServerSession(std::make_shared<FakeBackend>(), {.page_size = page});
}

TEST(McpServerSession, NegotiatesVersions) {
  for (std::string v : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
    auto s = MakeSession();
    Json r = s.Handle(Req(1, "initialize", {{"protocolVersion", v}}));
    EXPECT_EQ(r["result"]["protocolVersion"], v);
    EXPECT_TRUE(r["result"]["capabilities"].contains("tools"));
  }
  auto s = MakeSession();
  Json r = s.Handle(Req(1, "initialize", {{"protocolVersion", "1999-01-01"}}));
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-11-25");
}

TEST(McpServerSession, RequiresInitializeButAnswersPing) {
  auto s = MakeSession();
  EXPECT_EQ(s.Handle(Req(1, "ping"))["result"], Json::object());
  EXPECT_EQ(s.Handle(Req(2, "tools/list"))["error"]["code"], -32600);
  s.Handle(Req(3, "initialize", {{"protocolVersion", "2025-11-25"}}));
  EXPECT_EQ(s.Handle(Req(4, "resources/list"))["error"]["code"], -32601);
}

TEST(McpServerSession, PaginatesToolsList) {
  auto s = MakeSession(2);
  s.Handle(Req(1, "initialize"));
  std::vector<std::string> names;
  Json cursor;
  for (int i = 0; i < 10; ++i) {
    Json p = Json::object();
    if (!cursor.is_null()) p["cursor"] = cursor;
    Json r = s.Handle(Req(2 + i, "tools/list", p))["result"];
    for (auto& t : r["tools"]) names.push_back(t["name"]);
    if (!r.contains("nextCursor")) break;
    cursor = r["nextCursor"];
  }
  EXPECT_EQ(names, (std::vector<std::string>{"t0", "t1", "t2", "t3", "t4"}));
  EXPECT_EQ(s.Handle(Req(9, "tools/list", {{"cursor", "x"}}))["error"]["code"], -32602);
}

TEST(McpServerSession, CallsMapResultsAndErrors) {
  auto s = MakeSession();
  s.Handle(Req(1, "initialize"));
  Json ok = s.Handle(Req(2, "tools/call", {{"name", "echo"}, {"arguments", {{"text", "hi"}}}}));
  EXPECT_EQ(ok["result"]["content"][0]["text"], "hi");
  EXPECT_EQ(ok["result"]["isError"], false);
  Json fail = s.Handle(Req(3, "tools/call", {{"name", "fail"}}));
  EXPECT_EQ(fail["result"]["isError"], true);
  EXPECT_EQ(s.Handle(Req(4, "tools/call", {{"name", "nope"}}))["error"]["code"], -32602);
  EXPECT_EQ(s.Handle(Req(5, "tools/call", {{"arguments", 1}}))["error"]["code"], -32602);
}

TEST(McpServerSession, BatchesAndNotifications) {
  auto s = MakeSession();
  Json batch = Json::array({Req(1, "initialize"),
                            {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
                            Req(2, "ping")});
  Json r = s.Handle(batch);
  ASSERT_TRUE(r.is_array());
  EXPECT_EQ(r.size(), 2u);
  EXPECT_TRUE(
      s.Handle(Json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).is_null());
  EXPECT_EQ(s.Handle(Json{{"id", 1}})["error"]["code"], -32600);
}

TEST(McpServerSession, CancelledNotificationStopsTheCall) {
  auto s = MakeSession();
  s.Handle(Req(1, "initialize"));
  Json answer;
  std::thread t([&] { answer = s.Handle(Req(7, "tools/call", {{"name", "wait"}})); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  s.Handle(Json{
      {"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 7}}}});
  t.join();
  EXPECT_EQ(answer["result"]["isError"], true);
}

TEST(ResultToCallToolResult, MapsMediaByMimeType) {
  char tmpl[] = "/tmp/clawtools-media-XXXXXX";
  int fd = mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "abcd", 4), 4);
  ::close(fd);
  Result r = Result::Text("see attachments");
  r.media = {{tmpl, "image/png"},
             {tmpl, "audio/wav"},
             {tmpl, "text/plain"},
             {"/nonexistent", "image/png"}};
  Json j = ResultToCallToolResult(r);
  ::unlink(tmpl);
  ASSERT_EQ(j["content"].size(), 5u);
  EXPECT_EQ(j["content"][0]["text"], "see attachments");
  EXPECT_EQ(j["content"][1]["type"], "image");
  EXPECT_EQ(j["content"][1]["data"], "YWJjZA==");
  EXPECT_EQ(j["content"][2]["type"], "audio");
  EXPECT_EQ(j["content"][3]["type"], "resource");
  EXPECT_EQ(j["content"][3]["resource"]["blob"], "YWJjZA==");
  EXPECT_EQ(j["content"][4]["type"], "text");  // unreadable: described, not failed
  EXPECT_EQ(ResultToCallToolResult(r, 2)["content"][1]["type"], "text");  // too large
}

TEST(ServeStdio, OurClientRoundTrips) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  auto session = MakeSession(100);
  std::thread server([&] {
    auto st = ServeStdio(session, sv[1], sv[1]);
    EXPECT_TRUE(st.has_value()) << st.error().log_message();
  });
  {
    UniqueFd w(sv[0]);
    UniqueFd r(::dup(sv[0]));
    auto client = McpClient::Connect(
        std::make_unique<LineTransport>(std::move(r), std::move(w), UniqueFd(),
                                        LineTransportOptions{.describe = "stdio-test"}),
        {});
    ASSERT_TRUE(client.has_value()) << client.error().log_message();
    EXPECT_EQ((*client)->protocol_version(), "2025-11-25");
    auto tools = (*client)->ListTools(std::chrono::seconds(5));
    ASSERT_TRUE(tools.has_value());
    EXPECT_EQ(tools->size(), 5u);
    auto out = (*client)->CallTool("echo", {{"text", "x"}}, {});
    ASSERT_TRUE(out.has_value());
    EXPECT_EQ((*out)["content"][0]["text"], "x");
    // A call that only ends when cancelled: the deadline sends notifications/cancelled, which
    // the loop must read while the call runs.
    auto slow = (*client)->CallTool(
        "wait", Json::object(),
        {.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100)});
    EXPECT_FALSE(slow.has_value());
    (*client)->Close();
  }
  ::shutdown(sv[1], SHUT_RDWR);
  server.join();
  ::close(sv[1]);
}

}  // namespace
}  // namespace clawtools::mcp
