// End to end: a real gateway on a loopback port with the approval routes and the event
// stream, a gate waiting the way the exec tool will, decisions over HTTP, the SSE stream read
// from a raw socket, and a restart on the same database.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <future>
#include <random>
#include <sstream>

#include "../gateway/http_client.h"
#include "approval/approval_gate.h"
#include "gateway/approval_routes.h"
#include "gateway/gateway.h"
#include "runtime/runtime.h"
#include "test_support.h"

namespace clawtools {
namespace {

using namespace std::chrono_literals;
using testing::ConnectRaw;
using testing::Context;
using testing::HttpClient;
using testing::HttpReply;
using Clock = std::chrono::steady_clock;

constexpr char kToken[] = "approval-test-token";
const std::vector<std::string> kAuth = {std::string("Authorization: Bearer ") + kToken};

// Whitespace splitting stands in for the command analyser.
execpolicy::Analysis SplitWords(std::string_view command, std::string_view /*agent*/,
                                std::span<const std::string> /*provided_env*/) {
  execpolicy::Analysis a;
  std::istringstream in{std::string(command)};
  execpolicy::SimpleCommand cmd;
  for (std::string w; in >> w;) cmd.argv.push_back(w);
  a.commands.push_back(cmd);
  return a;
}

// Reads from `fd` until `needle` appears or `timeout` passes; returns everything read.
std::string ReadUntil(int fd, std::string_view needle, std::chrono::milliseconds timeout,
                      std::string& buffer) {
  auto deadline = Clock::now() + timeout;
  while (buffer.find(needle) == std::string::npos) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) break;
    pollfd p{.fd = fd, .events = POLLIN};
    if (poll(&p, 1, static_cast<int>(left)) <= 0) break;
    char buf[4096];
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    buffer.append(buf, static_cast<size_t>(n));
  }
  return buffer;
}

// Opens GET /v1/events on a raw socket; -1 on failure.
int OpenStream(uint16_t port, bool with_token = true) {
  int fd = ConnectRaw(port);
  if (fd < 0) return -1;
  std::string request =
      "GET /v1/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n";
  if (with_token) request += std::string("Authorization: Bearer ") + kToken + "\r\n";
  request += "\r\n";
  if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    close(fd);
    return -1;
  }
  return fd;
}

class ApprovalHttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    dir_ = std::filesystem::temp_directory_path() /
           ("clawtools-approval-http-" + std::to_string(rd()));
    std::filesystem::create_directories(dir_ / "ws");
    Start(ExecSecurity::kAllowlist, ExecAsk::kOnMiss);
  }
  void TearDown() override {
    Stop();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  void Start(ExecSecurity security, ExecAsk ask, std::chrono::milliseconds timeout = 20s) {
    RuntimeOptions ropts;
    ropts.workspace = (dir_ / "ws").string();
    ropts.db_url = (dir_ / "clawtools.db").string();
    ropts.log_level = LogLevel::kOff;
    auto rt = Runtime::Create(ropts);
    ASSERT_TRUE(rt) << rt.error().log_message();
    runtime_ = std::move(*rt);
    bus_ = std::make_shared<EventBus>();
    ApprovalSettings settings;
    settings.security = security;
    settings.ask = ask;
    settings.timeout = timeout;
    settings.poll_interval = 50ms;
    manager_ = std::make_shared<ApprovalManager>(runtime_->store(), settings, bus_);
    gate_ = std::make_shared<ApprovalGate>(manager_, SplitWords);
    GatewayOptions gopts;
    gopts.listen = "127.0.0.1:0";
    gopts.token = kToken;
    gopts.io_threads = 2;
    gopts.worker_threads = 4;
    gopts.shutdown_grace = 2s;
    gopts.sse_heartbeat = 100ms;
    gateway_ = std::make_unique<Gateway>(*runtime_, gopts);
    AddApprovalRoutes(gateway_->router(), *manager_);
    gateway_->AddEventStream("/v1/events", bus_);
    auto started = gateway_->Start();
    ASSERT_TRUE(started) << started.error().log_message();
    client_ = std::make_unique<HttpClient>(gateway_->port());
  }

  void Stop() {
    client_.reset();
    if (gateway_) {
      gateway_->Stop();
      gateway_->Wait();
    }
    gateway_.reset();
    gate_.reset();
    manager_.reset();
    runtime_.reset();
  }

  // What the exec tool will do: the gate check, on a thread of its own since it blocks.
  std::future<GateVerdict> RunCommand(std::string command, std::chrono::milliseconds budget = 30s) {
    return std::async(std::launch::async, [this, command, budget] {
      return gate_->Check(Context("coder", budget), command, cwd());
    });
  }

  // The id of the one pending request, once it shows up in GET /v1/approvals.
  std::string WaitForPending() {
    for (int i = 0; i < 400; ++i) {
      HttpReply r = client_->Get("/v1/approvals?status=pending", kAuth);
      EXPECT_EQ(r.status, 200) << r.body;
      Json list = r.json();
      if (list.is_array() && !list.empty()) {
        EXPECT_EQ(list.size(), 1u);
        return list[0]["id"];
      }
      std::this_thread::sleep_for(10ms);
    }
    ADD_FAILURE() << "no pending approval appeared";
    return "";
  }

  HttpReply Decide(const std::string& id, const std::string& body) {
    return client_->Post("/v1/approvals/" + id, body, kAuth);
  }

  std::string cwd() const { return (dir_ / "ws").string(); }

  std::filesystem::path dir_;
  std::unique_ptr<Runtime> runtime_;
  std::shared_ptr<EventBus> bus_;
  std::shared_ptr<ApprovalManager> manager_;
  std::shared_ptr<ApprovalGate> gate_;
  std::unique_ptr<Gateway> gateway_;
  std::unique_ptr<HttpClient> client_;
};

TEST_F(ApprovalHttpTest, PendingIsListedAndAllowOnceRunsIt) {
  int fd = OpenStream(gateway_->port());
  ASSERT_GE(fd, 0);
  std::string stream;
  ReadUntil(fd, ":\n\n", 5s, stream);  // subscribed: the first heartbeat came
  ASSERT_NE(stream.find("text/event-stream"), std::string::npos) << stream;
  ASSERT_NE(stream.find("chunked"), std::string::npos) << stream;

  auto verdict = RunCommand("git push origin main");
  std::string id = WaitForPending();
  HttpReply one = client_->Get("/v1/approvals/" + id, kAuth);
  ASSERT_EQ(one.status, 200);
  EXPECT_EQ(one.json()["command"], "git push origin main");
  EXPECT_EQ(one.json()["argv"], Json::parse(R"([["git","push","origin","main"]])"));
  EXPECT_EQ(one.json()["cwd"], NormalizeCwd(cwd()));
  EXPECT_EQ(one.json()["agent_id"], "coder");
  EXPECT_EQ(one.json()["status"], "pending");

  HttpReply decided = Decide(id, R"({"decision":"allow-once","by":"alice"})");
  ASSERT_EQ(decided.status, 200) << decided.body;
  EXPECT_EQ(decided.json()["status"], "allowed");
  EXPECT_EQ(decided.json()["decided_by"], "http:alice");
  ASSERT_EQ(verdict.wait_for(10s), std::future_status::ready);
  GateVerdict v = verdict.get();
  EXPECT_TRUE(v.allowed);
  EXPECT_EQ(v.rule, "approval:allow-once");

  ReadUntil(fd, "event: approval.decided", 5s, stream);
  size_t requested = stream.find("event: approval.requested\ndata: {");
  size_t decided_at = stream.find("event: approval.decided\ndata: {");
  ASSERT_NE(requested, std::string::npos) << stream;
  ASSERT_NE(decided_at, std::string::npos) << stream;
  EXPECT_LT(requested, decided_at);
  EXPECT_NE(stream.find("\"id\":\"" + id + "\"", requested), std::string::npos);
  EXPECT_NE(stream.find("\"decision\":\"allow-once\"", decided_at), std::string::npos);
  close(fd);
}

TEST_F(ApprovalHttpTest, DenyRefusesTheCommand) {
  auto verdict = RunCommand("curl example.com");
  std::string id = WaitForPending();
  ASSERT_EQ(Decide(id, R"({"decision":"deny"})").status, 200);
  GateVerdict v = verdict.get();
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(v.rule, "approval:deny");
  EXPECT_EQ(client_->Get("/v1/approvals/" + id, kAuth).json()["status"], "denied");
}

TEST_F(ApprovalHttpTest, TimeoutMeansDenied) {
  Stop();
  Start(ExecSecurity::kFull, ExecAsk::kAlways, 300ms);
  auto verdict = RunCommand("ls -la");
  std::string id = WaitForPending();
  GateVerdict v = verdict.get();
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(v.rule, "approval:expired");
  EXPECT_EQ(client_->Get("/v1/approvals/" + id, kAuth).json()["status"], "expired");
  EXPECT_EQ(Decide(id, R"({"decision":"allow-once"})").status, 409);
}

TEST_F(ApprovalHttpTest, BadRequestsUnknownIdsAndSecondDecisions) {
  auto verdict = RunCommand("make deploy");
  std::string id = WaitForPending();
  EXPECT_EQ(Decide(id, R"({"decision":"allow"})").status, 400);
  EXPECT_EQ(Decide(id, R"({"decision":1})").status, 400);
  EXPECT_EQ(Decide(id, "not json").status, 400);
  EXPECT_EQ(Decide(id, "{}").status, 400);
  EXPECT_EQ(Decide("apr_unknown", R"({"decision":"deny"})").status, 404);
  EXPECT_EQ(client_->Get("/v1/approvals/apr_unknown", kAuth).status, 404);
  EXPECT_EQ(client_->Get("/v1/approvals?status=bogus", kAuth).status, 400);
  EXPECT_EQ(client_->Get("/v1/approvals").status, 401);  // behind the token like every route
  ASSERT_EQ(Decide(id, R"({"decision":"deny"})").status, 200);
  EXPECT_EQ(Decide(id, R"({"decision":"allow-once"})").status, 409);
  EXPECT_FALSE(verdict.get().allowed);
  HttpReply all = client_->Get("/v1/approvals", kAuth);
  ASSERT_EQ(all.status, 200);
  EXPECT_EQ(all.json().size(), 1u);
}

TEST_F(ApprovalHttpTest, AllowAlwaysIsPersistedAcrossARestart) {
  auto verdict = RunCommand("npm run build");
  std::string id = WaitForPending();
  ASSERT_EQ(Decide(id, R"({"decision":"allow-always"})").status, 200);
  EXPECT_EQ(verdict.get().rule, "approval:allow-always");
  HttpReply rules = client_->Get("/v1/approvals/rules", kAuth);
  ASSERT_EQ(rules.status, 200);
  ASSERT_EQ(rules.json().size(), 1u);
  EXPECT_EQ(rules.json()[0]["pattern"], "npm run build");
  EXPECT_EQ(rules.json()[0]["cwd"], NormalizeCwd(cwd()));
  int64_t rule_id = rules.json()[0]["id"];

  Stop();
  Start(ExecSecurity::kAllowlist, ExecAsk::kOnMiss);
  GateVerdict after = RunCommand("npm run build", 2s).get();
  EXPECT_TRUE(after.allowed);
  EXPECT_EQ(after.rule, "allowlist:" + std::to_string(rule_id));
  // Bound to the command: another one still asks (and times out on the short budget).
  EXPECT_FALSE(RunCommand("npm publish", 200ms).get().allowed);

  EXPECT_EQ(
      client_->Send("DELETE", "/v1/approvals/rules/" + std::to_string(rule_id), "", kAuth).status,
      200);
  EXPECT_EQ(
      client_->Send("DELETE", "/v1/approvals/rules/" + std::to_string(rule_id), "", kAuth).status,
      404);
  EXPECT_EQ(client_->Send("DELETE", "/v1/approvals/rules/x", "", kAuth).status, 400);
  EXPECT_FALSE(RunCommand("npm run build", 200ms).get().allowed);
}

TEST_F(ApprovalHttpTest, EventStreamNeedsTheTokenAndSendsHeartbeats) {
  int denied = OpenStream(gateway_->port(), /*with_token=*/false);
  ASSERT_GE(denied, 0);
  std::string reply;
  ReadUntil(denied, "\r\n\r\n", 5s, reply);
  EXPECT_TRUE(reply.starts_with("HTTP/1.1 401")) << reply;
  close(denied);

  int fd = OpenStream(gateway_->port());
  ASSERT_GE(fd, 0);
  std::string stream;
  auto beats = [&stream] {
    size_t n = 0;
    for (size_t at = stream.find("\r\n:\n\n\r\n"); at != std::string::npos;
         at = stream.find("\r\n:\n\n\r\n", at + 1)) {
      ++n;
    }
    return n;
  };
  auto start = Clock::now();
  while (beats() < 3 && Clock::now() - start < 5s) ReadUntil(fd, "\xff", 50ms, stream);
  EXPECT_GE(beats(), 3u) << stream;  // one at once, then one per 100 ms
  EXPECT_EQ(stream.find("HTTP/1.1 200"), 0u) << stream;
  close(fd);
}

TEST_F(ApprovalHttpTest, GatewayShutdownClosesStreams) {
  int fd = OpenStream(gateway_->port());
  ASSERT_GE(fd, 0);
  std::string stream;
  ReadUntil(fd, ":\n\n", 5s, stream);
  ASSERT_NE(stream.find(":\n\n"), std::string::npos);
  auto start = Clock::now();
  gateway_->Stop();
  bool closed = false;
  stream += testing::ReadAll(fd, 5000, &closed);
  EXPECT_TRUE(closed);
  EXPECT_LT(Clock::now() - start, 2s);  // well inside the grace period: the stream ended itself
  EXPECT_TRUE(stream.ends_with("0\r\n\r\n")) << stream;  // the last chunk
  close(fd);
  gateway_->Wait();
}

TEST_F(ApprovalHttpTest, ClientDisconnectEndsTheStream) {
  int fd = OpenStream(gateway_->port());
  ASSERT_GE(fd, 0);
  std::string stream;
  ReadUntil(fd, ":\n\n", 5s, stream);
  EXPECT_EQ(bus_->subscriber_count(), 1u);
  close(fd);
  for (int i = 0; i < 200 && bus_->subscriber_count() > 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(bus_->subscriber_count(), 0u);
}

}  // namespace
}  // namespace clawtools
