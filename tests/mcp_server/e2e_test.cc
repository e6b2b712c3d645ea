// End to end: `clawtools mcp-stdio` and /mcp on the gateway (mcp_fixture_server), driven by
// clawtools' own McpClient and by raw HTTP; per-agent isolation of store-granted MCP servers.
#include <curl/curl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "mcp/access_store.h"
#include "mcp/child_process.h"
#include "mcp/client.h"
#include "mcp/http_client.h"
#include "mcp/server_config.h"
#include "mcp/server_store.h"
#include "store/store.h"

namespace clawtools::mcp {
namespace {

namespace fs = std::filesystem;
constexpr const char* kSecret = "sekrit-XYZ-1234567890";

class McpE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawtools-mcps-XXXXXX";
    dir_ = mkdtemp(tmpl);
    fs::create_directories(dir_ / "ws");
    std::ofstream(dir_ / "ws" / "secret.txt") << "the token is " << kSecret << "\n";
    WriteConfig("config.json", R"("gateway": {"token": "tok"},)", "db.sqlite");
    // The granted MCP server's own runtime: a database of its own.
    WriteConfig("child.json", "", "child.sqlite");
  }
  void TearDown() override {
    server_.reset();
    fs::remove_all(dir_);
  }
  void WriteConfig(const std::string& name, const std::string& extra, const std::string& db) {
    std::ofstream(dir_ / name) << "{" << extra << R"("workspace": ")" << (dir_ / "ws").string()
                               << R"(", "db": ")" << (dir_ / db).string()
                               << R"(", "tools": {"profile": "full", "deny": ["write_file"],
                                   "scrub_values": [")"
                               << kSecret << R"("]}})";
  }
  std::string Config() const { return (dir_ / "config.json").string(); }

  std::unique_ptr<McpClient> Connect(McpServerConfig c) {
    c.name = "t";
    auto t = MakeTransport(c, nullptr, std::chrono::seconds(20));
    EXPECT_TRUE(t.has_value());
    if (!t) return nullptr;
    auto client = McpClient::Connect(std::move(*t), {.connect_timeout = std::chrono::seconds(30)});
    EXPECT_TRUE(client.has_value()) << client.error().log_message();
    return client ? std::move(*client) : nullptr;
  }

  // Starts the fixture gateway; returns its /mcp URL.
  std::string StartHttp() {
    auto child = ChildProcess::Spawn(
        {.command = CLAWTOOLS_FIXTURE_SERVER,
         .args = {"--config", Config(), "--http", "--port-file", (dir_ / "port").string()}});
    EXPECT_TRUE(child.has_value());
    if (!child) return "";
    server_ = std::make_unique<ChildProcess>(std::move(*child));
    for (int i = 0; i < 600 && !fs::exists(dir_ / "port"); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::string port;
    std::ifstream(dir_ / "port") >> port;
    EXPECT_FALSE(port.empty());
    return "http://127.0.0.1:" + port + "/mcp";
  }

  // Stores the fixture server as "fx" (stdio, its own runtime) and grants it.
  void GrantFx(const std::vector<AgentGrant>& grants) {
    auto db = store::OpenStore((dir_ / "db.sqlite").string());
    ASSERT_TRUE(db.has_value());
    McpServerConfig fx;
    fx.name = "fx";
    fx.command = CLAWTOOLS_FIXTURE_SERVER;
    fx.args = {"--config", (dir_ / "child.json").string(), "--stdio"};
    ASSERT_TRUE(McpServerStore(**db).Put(fx).has_value());
    for (const AgentGrant& g : grants)
      ASSERT_TRUE(McpAccessStore(**db).PutAgentGrant(g).has_value());
  }

  // A client of the gateway's /mcp as `agent`.
  std::unique_ptr<McpClient> ConnectAs(const std::string& url, const std::string& agent) {
    McpServerConfig c;
    c.transport = TransportKind::kStreamableHttp;
    c.url = url + "?agent=" + agent;
    c.headers = {{"Authorization", "Bearer tok"}};
    return Connect(c);
  }

  static std::vector<std::string> Names(const std::vector<McpToolDef>& tools) {
    std::vector<std::string> out;
    for (const auto& t : tools) out.push_back(t.name);
    return out;
  }
  static bool Has(const std::vector<std::string>& v, const std::string& s) {
    return std::ranges::find(v, s) != v.end();
  }

  fs::path dir_;
  std::unique_ptr<ChildProcess> server_;
};

struct Reply {
  long status = 0;
  HttpResponseHead head;
  std::string body;
};

Reply Http(const std::string& method, const std::string& url,
           std::vector<std::pair<std::string, std::string>> headers, std::string body = "") {
  Reply r;
  HttpRequest req{.method = method,
                  .url = url,
                  .headers = std::move(headers),
                  .body = std::move(body),
                  .timeout = std::chrono::seconds(20)};
  auto st = PerformHttp(req, {.on_head =
                                  [&](const HttpResponseHead& h) {
                                    r.head = h;
                                    return true;
                                  },
                              .on_data =
                                  [&](std::string_view d) {
                                    r.body += d;
                                    return true;
                                  }});
  r.status = st.value_or(0);
  return r;
}

// PerformHttp sends a body with POST only; PUT goes through libcurl here.
Reply Put(const std::string& url, const std::string& token, const std::string& body) {
  Reply r;
  CURL* c = curl_easy_init();
  curl_slist* h = curl_slist_append(nullptr, ("Authorization: Bearer " + token).c_str());
  h = curl_slist_append(h, "Content-Type: application/json");
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(c, CURLOPT_TIMEOUT, 20L);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &r.body);
  curl_easy_setopt(
      c, CURLOPT_WRITEFUNCTION, +[](char* p, size_t, size_t n, void* out) {
        static_cast<std::string*>(out)->append(p, n);
        return n;
      });
  if (curl_easy_perform(c) == CURLE_OK) curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
  curl_slist_free_all(h);
  curl_easy_cleanup(c);
  return r;
}

const std::string kInit =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})";

TEST_F(McpE2E, StdioServesThePolicyFilteredPipeline) {
  McpServerConfig c;
  c.transport = TransportKind::kStdio;
  c.command = CLAWTOOLS_BIN;
  c.args = {"mcp-stdio", "--config", Config()};
  auto client = Connect(c);
  ASSERT_TRUE(client);
  auto tools = client->ListTools(std::chrono::seconds(20));
  ASSERT_TRUE(tools.has_value());
  auto names = Names(*tools);
  EXPECT_TRUE(Has(names, "read_file"));
  EXPECT_FALSE(Has(names, "write_file"));  // tools.deny
  CallOptions opts{.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20)};
  auto denied = client->CallTool("write_file", {{"path", "x.txt"}, {"content", "x"}}, opts);
  ASSERT_TRUE(denied.has_value());
  EXPECT_EQ((*denied)["isError"], true);
  EXPECT_NE((*denied)["content"][0]["text"].get<std::string>().find("not allowed"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "ws" / "x.txt"));
  auto read = client->CallTool("read_file", {{"path", "secret.txt"}}, opts);
  ASSERT_TRUE(read.has_value());
  std::string text = (*read)["content"][0]["text"];
  EXPECT_NE(text.find("the token is"), std::string::npos);
  EXPECT_EQ(text.find(kSecret), std::string::npos) << text;  // scrubbed
  EXPECT_FALSE(client->CallTool("no_such_tool", Json::object(), opts).has_value());
  client->Close();
}

// The official TypeScript SDK client against `clawtools mcp-stdio` (skipped without npm).
TEST_F(McpE2E, SdkClientOverStdio) {
  const std::string npm = std::string(CLAWTOOLS_SOURCE_DIR) + "/tests/mcp/npm/node_modules";
  if (!fs::exists(npm + "/@modelcontextprotocol/sdk") ||
      std::system("node --version >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "node or @modelcontextprotocol/sdk missing (scripts/install-npm.sh)";
  }
  std::string out = (dir_ / "sdk.out").string();
  std::string cmd =
      "MCP_SDK_DIR=" + npm + "/@modelcontextprotocol/sdk node " + CLAWTOOLS_SOURCE_DIR +
      "/tests/mcp_server/sdk_stdio_client.mjs read_file '{\"path\":\"secret.txt\"}' " +
      CLAWTOOLS_BIN + " mcp-stdio --config " + Config() + " > " + out;
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(out);
  Json j = Json::parse(in, nullptr, false);
  ASSERT_TRUE(j.is_object());
  EXPECT_TRUE(Has(j["tools"].get<std::vector<std::string>>(), "read_file"));
  EXPECT_FALSE(Has(j["tools"].get<std::vector<std::string>>(), "write_file"));
  std::string text = j["result"]["content"][0]["text"];
  EXPECT_NE(text.find("the token is"), std::string::npos);
  EXPECT_EQ(text.find(kSecret), std::string::npos);
}

TEST_F(McpE2E, AdminRoutes) {
  std::string base = StartHttp();
  base.resize(base.size() - 4);  // drop "/mcp"
  const std::pair<std::string, std::string> auth{"Authorization", "Bearer tok"};
  auto call = [&](const std::string& method, const std::string& path,
                  const std::string& body = "") {
    if (method == "PUT") return Put(base + path, "tok", body);
    return Http(method, base + path, {auth, {"Content-Type", "application/json"}}, body);
  };
  EXPECT_EQ(Http("GET", base + "/v1/mcp/servers", {}).status, 401);
  EXPECT_EQ(
      call("POST", "/v1/mcp/servers", R"({"name":"fs","command":"npx","env":{"K":"secret-v"}})")
          .status,
      201);
  Reply got = call("GET", "/v1/mcp/servers/fs");
  EXPECT_EQ(got.status, 200);
  EXPECT_EQ(got.body.find("secret-v"), std::string::npos);  // env values withheld
  EXPECT_EQ(call("GET", "/v1/mcp/servers/nope").status, 404);
  EXPECT_EQ(call("POST", "/v1/mcp/servers", R"({"name":"bad"})").status, 400);
  Reply put =
      call("PUT", "/v1/mcp/servers/fs/grants/agents/coder",
           R"({"tool_allow":["read"],"tool_deny":["write"],"config_overrides":{"env":{"A":"1"}}})");
  EXPECT_EQ(put.status, 200) << put.body;
  Reply grant = call("GET", "/v1/mcp/servers/fs/grants/agents/coder");
  ASSERT_EQ(grant.status, 200);
  EXPECT_EQ(Json::parse(grant.body)["tool_allow"], Json::array({"read"}));
  EXPECT_EQ(call("PUT", "/v1/mcp/servers/fs/grants/users/alice", R"({"tool_deny":"x"})").status,
            400);
  EXPECT_EQ(call("PUT", "/v1/mcp/servers/fs/grants/users/alice", R"({})").status, 200);
  EXPECT_EQ(Json::parse(call("GET", "/v1/mcp/servers/fs/grants").body)["users"].size(), 1u);
  EXPECT_EQ(call("DELETE", "/v1/mcp/servers/fs/grants/users/alice").status, 200);
  EXPECT_EQ(call("DELETE", "/v1/mcp/servers/fs/grants/users/alice").status, 404);
  Reply req = call("POST", "/v1/mcp/requests",
                   R"({"server":"fs","scope":"agent","agent":"ops","tools":["read"]})");
  ASSERT_EQ(req.status, 201) << req.body;
  std::string id = Json::parse(req.body)["id"];
  EXPECT_EQ(Json::parse(call("GET", "/v1/mcp/requests").body).size(), 1u);
  EXPECT_EQ(call("POST", "/v1/mcp/requests/" + id, R"({"decision":"maybe"})").status, 400);
  Reply ok = call("POST", "/v1/mcp/requests/" + id, R"({"decision":"approve","reviewer":"root"})");
  ASSERT_EQ(ok.status, 200);
  EXPECT_EQ(Json::parse(ok.body)["status"], "approved");
  EXPECT_EQ(call("GET", "/v1/mcp/servers/fs/grants/agents/ops").status, 200);
  EXPECT_EQ(call("POST", "/v1/mcp/requests/" + id, R"({"decision":"reject"})").status, 409);
  EXPECT_EQ(call("GET", "/v1/mcp/status").status, 200);
  EXPECT_EQ(call("POST", "/v1/mcp/servers/fs/tools/t/approve-drift").status, 404);
  EXPECT_EQ(call("DELETE", "/v1/mcp/servers/fs").status, 200);
  EXPECT_EQ(call("GET", "/v1/mcp/servers/fs/grants/agents/coder").status, 404);  // cascaded
}

TEST_F(McpE2E, HttpSessionsHeadersAndAuth) {
  std::string url = StartHttp();
  const std::pair<std::string, std::string> auth{"Authorization", "Bearer tok"};
  const std::pair<std::string, std::string> json{"Content-Type", "application/json"};
  const std::pair<std::string, std::string> accept{"Accept", "application/json, text/event-stream"};
  EXPECT_EQ(Http("POST", url, {json, accept}, kInit).status, 401);
  EXPECT_EQ(
      Http("POST", url, {auth, json, accept, {"Origin", "http://evil.example.com"}}, kInit).status,
      403);
  EXPECT_EQ(Http("POST", url, {auth, json, accept, {"Host", "evil.example.com"}}, kInit).status,
            403);
  EXPECT_EQ(
      Http("POST", url, {auth, json, accept, {"Origin", "http://localhost:3000"}}, kInit).status,
      200);

  Reply init = Http("POST", url, {auth, json, accept}, kInit);
  ASSERT_EQ(init.status, 200) << init.body;
  std::string sid = init.head.Header("mcp-session-id");
  EXPECT_EQ(sid.size(), 64u);
  EXPECT_EQ(Json::parse(init.body)["result"]["protocolVersion"], "2025-11-25");
  const std::string list = R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})";
  EXPECT_EQ(Http("POST", url, {auth, json, accept}, list).status, 400);  // no session
  EXPECT_EQ(Http("POST", url, {auth, json, accept, {"Mcp-Session-Id", "nope"}}, list).status, 404);
  EXPECT_EQ(
      Http("POST", url,
           {auth, json, accept, {"Mcp-Session-Id", sid}, {"MCP-Protocol-Version", "1999-01-01"}},
           list)
          .status,
      400);
  Reply listed = Http(
      "POST", url,
      {auth, json, accept, {"Mcp-Session-Id", sid}, {"MCP-Protocol-Version", "2025-11-25"}}, list);
  ASSERT_EQ(listed.status, 200);
  EXPECT_FALSE(Json::parse(listed.body)["result"]["tools"].empty());
  Reply sse = Http("POST", url,
                   {auth, json, {"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}}, list);
  EXPECT_EQ(sse.head.Header("content-type"), "text/event-stream");
  EXPECT_TRUE(sse.body.starts_with("event: message\ndata: {")) << sse.body;
  EXPECT_EQ(Http("POST", url, {auth, json, accept, {"Mcp-Session-Id", sid}},
                 R"({"jsonrpc":"2.0","method":"notifications/initialized"})")
                .status,
            202);
  EXPECT_EQ(Http("GET", url, {auth, accept, {"Mcp-Session-Id", sid}}).status, 405);
  EXPECT_EQ(Http("DELETE", url, {auth, {"Mcp-Session-Id", sid}}).status, 200);
  EXPECT_EQ(Http("POST", url, {auth, json, accept, {"Mcp-Session-Id", sid}}, list).status, 404);

  // Our own client over streamable HTTP, through the pipeline.
  McpServerConfig c;
  c.transport = TransportKind::kStreamableHttp;
  c.url = url;
  c.headers = {{"Authorization", "Bearer tok"}};
  auto client = Connect(c);
  ASSERT_TRUE(client);
  auto echo = client->CallTool("echo", {{"text", std::string("hi ") + kSecret}}, {});
  ASSERT_TRUE(echo.has_value());
  EXPECT_EQ((*echo)["content"][0]["text"].get<std::string>().find(kSecret), std::string::npos);
  auto denied = client->CallTool("write_file", {{"path", "y"}, {"content", "y"}}, {});
  ASSERT_TRUE(denied.has_value());
  EXPECT_EQ((*denied)["isError"], true);
  client->Close();
}

TEST_F(McpE2E, AgentGrantsIsolateMcpServers) {
  AgentGrant g{.server = "fx", .agent_id = "alice-agent"};
  g.tools.deny = {"test_error_handling"};
  ASSERT_NO_FATAL_FAILURE(GrantFx({g}));
  std::string url = StartHttp();
  auto a = ConnectAs(url, "alice-agent");
  auto b = ConnectAs(url, "bob-agent");
  ASSERT_TRUE(a && b);
  auto a_tools = a->ListTools(std::chrono::seconds(30));
  auto b_tools = b->ListTools(std::chrono::seconds(30));
  ASSERT_TRUE(a_tools && b_tools);
  EXPECT_TRUE(Has(Names(*a_tools), "mcp_fx_echo"));
  EXPECT_FALSE(Has(Names(*a_tools), "mcp_fx_test_error_handling"));  // the grant's deny
  for (const auto& n : Names(*b_tools)) EXPECT_FALSE(n.starts_with("mcp_fx")) << n;
  auto ok = a->CallTool("mcp_fx_echo", {{"text", "from alice"}}, {});
  ASSERT_TRUE(ok.has_value());
  EXPECT_NE((*ok)["content"][0]["text"].get<std::string>().find("from alice"), std::string::npos);
  EXPECT_FALSE(b->CallTool("mcp_fx_echo", {{"text", "from bob"}}, {}).has_value());
  a->Close();
  b->Close();
}

// Policy lists naming group:mcp / group:mcp:<server> apply to store-granted servers too: they
// resolve against the agent's own registry, which holds its granted servers' tools.
TEST_F(McpE2E, AgentPolicyGroupsCoverStoreGrantedServers) {
  WriteConfig("config.json", R"("gateway": {"token": "tok"},
    "agents": {"list": [{"id": "only-mcp", "tools": {"allow": ["group:mcp"]}},
                        {"id": "no-fx", "tools": {"deny": ["group:mcp:fx"]}}]},)",
              "db.sqlite");
  ASSERT_NO_FATAL_FAILURE(
      GrantFx({{.server = "fx", .agent_id = "only-mcp"}, {.server = "fx", .agent_id = "no-fx"}}));
  std::string url = StartHttp();
  auto tools_of = [&](const std::string& agent) {
    auto client = ConnectAs(url, agent);
    std::vector<std::string> names;
    if (!client) return names;
    auto tools = client->ListTools(std::chrono::seconds(30));
    EXPECT_TRUE(tools.has_value());
    if (tools) names = Names(*tools);
    client->Close();
    return names;
  };
  auto only_mcp = tools_of("only-mcp");
  EXPECT_TRUE(Has(only_mcp, "mcp_fx_echo"));
  for (const auto& n : only_mcp) EXPECT_TRUE(n.starts_with("mcp_fx_")) << n;
  auto no_fx = tools_of("no-fx");
  EXPECT_TRUE(Has(no_fx, "read_file"));
  for (const auto& n : no_fx) EXPECT_FALSE(n.starts_with("mcp_fx")) << n;
}

}  // namespace
}  // namespace clawtools::mcp
