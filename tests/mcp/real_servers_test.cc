// Against real MCP servers from npm (tests/mcp/npm, installed by scripts/install-npm.sh):
// @modelcontextprotocol/server-everything over stdio, HTTP+SSE and streamable HTTP, and
// @modelcontextprotocol/server-filesystem over stdio. Skips (with the reason) only when node
// or the packages are missing.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/registry.h"
#include "mcp/child_process.h"
#include "mcp/client.h"
#include "mcp/content.h"
#include "mcp/manager.h"
#include "mcp/server_config.h"
#include "mcp/server_store.h"
#include "store/store.h"

namespace clawtools::mcp {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string NpmDir() {
  if (const char* d = std::getenv("CLAWTOOLS_NPM_DIR")) return d;
  return std::string(CLAWTOOLS_SOURCE_DIR) + "/tests/mcp/npm";
}
std::string Bin(const std::string& name) {
  return NpmDir() + "/node_modules/.bin/" + name;
}

bool HaveServers() {
  return fs::exists(Bin("mcp-server-everything")) && fs::exists(Bin("mcp-server-filesystem")) &&
         std::system("node --version >/dev/null 2>&1") == 0;
}

#define REQUIRE_SERVERS()                                                                        \
  if (!HaveServers())                                                                            \
  GTEST_SKIP() << "node or the npm MCP servers are missing: run scripts/install-npm.sh (or set " \
                  "CLAWTOOLS_NPM_DIR)"

template <class F>
bool Eventually(F f, std::chrono::milliseconds limit = 20s) {
  auto until = std::chrono::steady_clock::now() + limit;
  while (!f()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(50ms);
  }
  return true;
}

bool Alive(pid_t pid) {
  return pid > 0 && ::kill(pid, 0) == 0;
}

McpServerConfig Everything(std::string name = "everything") {
  McpServerConfig c;
  c.name = std::move(name);
  c.command = Bin("mcp-server-everything");
  c.args = {"stdio"};
  c.timeout = 20s;
  return c;
}

int FreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

bool PortOpen(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

// server-everything in an HTTP mode on a free loopback port; killed with its group at the end.
struct HttpEverything {
  int port = FreePort();
  std::optional<ChildProcess> proc;
  explicit HttpEverything(const std::string& mode) {
    auto p = ChildProcess::Spawn(
        {Bin("mcp-server-everything"), {mode}, {{"PORT", std::to_string(port)}}});
    if (p) proc.emplace(std::move(*p));
  }
  bool Ready() {
    return proc && Eventually([&] { return PortOpen(port); });
  }
  std::string Url(const std::string& path) {
    return "http://127.0.0.1:" + std::to_string(port) + path;
  }
};

// The common exercise: initialize, list, echo, get-sum, structured content, image, long
// operation with progress, and the timeout + cancel path.
void Exercise(McpClient& c) {
  auto tools = c.ListTools(20s);
  ASSERT_TRUE(tools) << tools.error().for_model;
  std::set<std::string> names;
  for (auto& t : *tools) names.insert(t.name);
  for (auto n : {"echo", "get-sum", "trigger-long-running-operation", "get-tiny-image"}) {
    EXPECT_TRUE(names.contains(n)) << n;
  }
  CallOptions co;
  co.deadline = std::chrono::steady_clock::now() + 20s;
  auto echo = c.CallTool("echo", {{"message", "hello mcp"}}, co);
  ASSERT_TRUE(echo) << echo.error().for_model;
  EXPECT_NE(RenderCallResult(*echo).find("hello mcp"), std::string::npos);
  auto sum = c.CallTool("get-sum", {{"a", 2}, {"b", 40}}, co);
  ASSERT_TRUE(sum) << sum.error().for_model;
  EXPECT_NE(RenderCallResult(*sum).find("42"), std::string::npos) << sum->dump();
  auto image = c.CallTool("get-tiny-image", Json::object(), co);
  ASSERT_TRUE(image);
  EXPECT_NE(RenderCallResult(*image).find("[image: image/png,"), std::string::npos);

  std::atomic<int> progress = 0;
  CallOptions with_progress = co;
  with_progress.on_progress = [&](const Progress&) { ++progress; };
  auto longop =
      c.CallTool("trigger-long-running-operation", {{"duration", 1}, {"steps", 3}}, with_progress);
  ASSERT_TRUE(longop) << longop.error().for_model;
  EXPECT_GE(progress.load(), 1);

  CallOptions tight;
  tight.deadline = std::chrono::steady_clock::now() + 300ms;
  auto timed_out =
      c.CallTool("trigger-long-running-operation", {{"duration", 5}, {"steps", 5}}, tight);
  ASSERT_FALSE(timed_out);
  EXPECT_EQ(timed_out.error().code, ErrorCode::kDeadlineExceeded);
  // The connection stays usable after a cancelled call.
  EXPECT_TRUE(c.CallTool("echo", {{"message", "still here"}}, co));
  EXPECT_TRUE(c.Ping(5s));
}

TEST(RealServers, EverythingOverStdio) {
  REQUIRE_SERVERS();
  auto cfg = Everything();
  auto t = MakeTransport(cfg, nullptr, 20s);
  ASSERT_TRUE(t);
  auto c = McpClient::Connect(std::move(*t), {});
  ASSERT_TRUE(c) << c.error().for_model;
  EXPECT_EQ((*c)->protocol_version(), "2025-11-25");
  Exercise(**c);
  auto structured = (*c)->CallTool("get-structured-content", {{"location", "Chicago"}}, {});
  ASSERT_TRUE(structured);
  EXPECT_TRUE(structured->contains("structuredContent"));
}

TEST(RealServers, EverythingOverLegacySse) {
  REQUIRE_SERVERS();
  HttpEverything server("sse");
  ASSERT_TRUE(server.Ready());
  McpServerConfig cfg;
  cfg.name = "sse";
  cfg.transport = TransportKind::kSse;
  cfg.url = server.Url("/sse");
  auto t = MakeTransport(cfg, nullptr, 20s);
  ASSERT_TRUE(t);
  auto c = McpClient::Connect(std::move(*t), {});
  ASSERT_TRUE(c) << c.error().for_model;
  Exercise(**c);
}

TEST(RealServers, EverythingOverStreamableHttp) {
  REQUIRE_SERVERS();
  HttpEverything server("streamableHttp");
  ASSERT_TRUE(server.Ready());
  McpServerConfig cfg;
  cfg.name = "http";
  cfg.transport = TransportKind::kStreamableHttp;
  cfg.url = server.Url("/mcp");
  auto t = MakeTransport(cfg, nullptr, 20s);
  ASSERT_TRUE(t);
  auto c = McpClient::Connect(std::move(*t), {});
  ASSERT_TRUE(c) << c.error().for_model;
  EXPECT_EQ((*c)->protocol_version(), "2025-11-25");
  Exercise(**c);
}

TEST(RealServers, FilesystemOverStdio) {
  REQUIRE_SERVERS();
  fs::path dir = fs::temp_directory_path() / ("clawtools-mcp-fs-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "note.txt") << "filesystem says hi";
  McpServerConfig cfg;
  cfg.name = "files";
  cfg.command = Bin("mcp-server-filesystem");
  cfg.args = {dir.string()};
  auto t = MakeTransport(cfg, nullptr, 20s);
  auto c = McpClient::Connect(std::move(*t), {});
  ASSERT_TRUE(c) << c.error().for_model;
  CallOptions co;
  co.deadline = std::chrono::steady_clock::now() + 20s;
  auto list = (*c)->CallTool("list_directory", {{"path", dir.string()}}, co);
  ASSERT_TRUE(list) << list.error().for_model;
  EXPECT_NE(RenderCallResult(*list).find("note.txt"), std::string::npos) << list->dump();
  auto read = (*c)->CallTool("read_text_file", {{"path", (dir / "note.txt").string()}}, co);
  ASSERT_TRUE(read);
  EXPECT_NE(RenderCallResult(*read).find("filesystem says hi"), std::string::npos) << read->dump();
  auto outside = (*c)->CallTool("read_text_file", {{"path", "/etc/passwd"}}, co);
  ASSERT_TRUE(outside);
  EXPECT_TRUE(outside->value("isError", false));
  fs::remove_all(dir);
}

TEST(RealServers, ManagerReconnectsAfterKillAndLeavesNoOrphans) {
  REQUIRE_SERVERS();
  Registry reg;
  pid_t first = -1, second = -1;
  {
    McpManagerOptions o;
    o.backoff_initial = 100ms;
    o.backoff_max = 400ms;
    o.health_interval = 500ms;
    McpManager mgr(reg, o);
    mgr.Start({Everything()});
    auto st = mgr.Server("everything");
    ASSERT_EQ(st->phase, ServerPhase::kConnected) << st->last_error;
    first = st->pid;
    ASSERT_TRUE(Alive(first));
    CallRequest req;
    req.tool = "mcp_everything_echo";
    req.args = {{"message", "before"}};
    auto before = reg.Execute(req);
    EXPECT_FALSE(before.result.is_error) << before.result.for_llm;
    EXPECT_NE(before.result.for_llm.find("before"), std::string::npos);

    ::kill(-first, SIGKILL);  // the server crashes
    ASSERT_TRUE(
        Eventually([&] { return mgr.Server("everything")->phase != ServerPhase::kConnected; }, 5s));
    auto during = reg.Execute(req);
    EXPECT_TRUE(during.result.is_error);
    EXPECT_NE(during.result.for_llm.find("MCP server \"everything\" is unavailable"),
              std::string::npos)
        << during.result.for_llm;

    ASSERT_TRUE(Eventually([&] {
      auto s = mgr.Server("everything");
      return s->phase == ServerPhase::kConnected && s->pid != first;
    }));
    second = mgr.Server("everything")->pid;
    req.args = {{"message", "after"}};
    auto after = reg.Execute(req);
    EXPECT_FALSE(after.result.is_error) << after.result.for_llm;
    EXPECT_TRUE(Alive(second));
  }
  EXPECT_FALSE(Alive(first));
  EXPECT_FALSE(Alive(second));  // shut down with the manager; kill(pid, 0) sees no process
  EXPECT_EQ(reg.size(), 0u);
}

TEST(RealServers, ManagerLoadsServersFromConfigAndStore) {
  REQUIRE_SERVERS();
  auto store = store::Store::Open(":memory:");
  ASSERT_TRUE(store) << store.error().log_message();
  McpServerStore servers(**store);
  auto stored = Everything("stored");
  stored.tool_prefix = "ev";
  ASSERT_TRUE(servers.Put(stored));
  Json config = {{"everything", {{"command", Bin("mcp-server-everything")}, {"args", {"stdio"}}}},
                 {"off", {{"command", "nope"}, {"enabled", false}}}};
  auto all = LoadMcpServers(config, store->get());
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 3u);
  Registry reg;
  McpManagerOptions o;
  o.hashes = std::make_shared<StoreToolHashes>(**store);
  McpManager mgr(reg, o);
  mgr.Start(*all);
  EXPECT_TRUE(reg.Get("mcp_everything_get-sum"));
  EXPECT_TRUE(reg.Get("mcp_ev_get-sum"));
  EXPECT_FALSE(mgr.Server("off"));
  auto hash = StoreToolHashes(**store).Get("stored", "echo");
  ASSERT_TRUE(hash && *hash);
  EXPECT_EQ((*hash)->status, HashStatus::kOk);
}

}  // namespace
}  // namespace clawtools::mcp
