// End-to-end: a real gateway on a loopback port, driven by a real HTTP client (libcurl) and by
// raw sockets for misbehaving clients.
#include "gateway/gateway.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <thread>

#include "core/tool.h"
#include "http_client.h"
#include "runtime/runtime.h"

namespace clawtools {
namespace {

using testing::ConnectRaw;
using testing::HttpClient;
using testing::HttpReply;
using testing::ReadAll;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr char kFakeSecret[] = "sk-proj-Zq3xV9bT2mK8wL4nR7pY1cD6fH0jS5gA2eU8iO3tQ9vB";

class FunctionTool : public SimpleTool {
 public:
  using Fn = std::function<Result(const CallContext&, const Json&)>;
  FunctionTool(std::string name, Json parameters, Fn fn)
      : SimpleTool(std::move(name), "test tool", std::move(parameters)), fn_(std::move(fn)) {}
  Result Execute(const CallContext& ctx, const Json& args) const override { return fn_(ctx, args); }

 private:
  Fn fn_;
};

Json ObjectSchema(Json properties = Json::object()) {
  return Json{{"type", "object"}, {"properties", std::move(properties)}};
}

// Counts slow-tool runs that started and that saw cancellation, so tests can wait for a call
// to be in flight.
std::atomic<int> slow_started{0};
std::atomic<int> slow_cancelled{0};

void RegisterTestTools(Registry& registry) {
  Json echo_schema = ObjectSchema({{"text", {{"type", "string"}}}});
  echo_schema["required"] = Json::array({"text"});
  ASSERT_TRUE(registry.Register(std::make_shared<FunctionTool>(
      "echo", echo_schema,
      [](const CallContext&, const Json& args) { return Result::Text(args["text"]); })));
  ASSERT_TRUE(registry.Register(
      std::make_shared<FunctionTool>("leak", ObjectSchema(), [](const CallContext&, const Json&) {
        return Result::Text(std::string("the key is ") + kFakeSecret);
      })));
  ASSERT_TRUE(registry.Register(std::make_shared<FunctionTool>(
      "boom", ObjectSchema(),
      [](const CallContext&, const Json&) -> Result { throw std::runtime_error("boom"); })));
  ASSERT_TRUE(registry.Register(std::make_shared<FunctionTool>(
      "slow", ObjectSchema({{"ms", {{"type", "integer"}}}}),
      [](const CallContext& ctx, const Json& args) {
        ++slow_started;
        auto until = Clock::now() + std::chrono::milliseconds(args.value("ms", 1000));
        while (Clock::now() < until) {
          if (ctx.cancelled()) {
            ++slow_cancelled;
            return Result::Fail("cancelled", ErrorCode::kCancelled);
          }
          std::this_thread::sleep_for(5ms);
        }
        return Result::Text("done");
      })));
}

void WaitFor(const std::function<bool()>& condition, std::chrono::milliseconds limit = 5s) {
  auto deadline = Clock::now() + limit;
  while (!condition() && Clock::now() < deadline) std::this_thread::sleep_for(5ms);
}

class GatewayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("CLAWTOOLS_TOKEN");
    slow_started = 0;
    slow_cancelled = 0;
    auto runtime = Runtime::Create(RuntimeOptions{.log_level = LogLevel::kWarn});
    ASSERT_TRUE(runtime) << runtime.error().log_message();
    runtime_ = std::move(*runtime);
    RegisterTestTools(runtime_->registry());
  }

  void TearDown() override {
    if (gateway_) {
      gateway_->Stop();
      gateway_->Wait();
    }
  }

  static GatewayOptions Options() {
    GatewayOptions options;
    options.listen = "127.0.0.1:0";
    options.io_threads = 2;
    options.worker_threads = 4;
    return options;
  }

  void Start(GatewayOptions options = Options()) {
    gateway_ = std::make_unique<Gateway>(*runtime_, std::move(options));
    auto started = gateway_->Start();
    ASSERT_TRUE(started) << started.error().log_message();
    ASSERT_NE(gateway_->port(), 0);
  }

  HttpReply Invoke(const std::string& tool, const Json& body) {
    return HttpClient(gateway_->port()).Post("/v1/tools/" + tool + "/invoke", body.dump());
  }

  std::unique_ptr<Runtime> runtime_;
  std::unique_ptr<Gateway> gateway_;
};

TEST_F(GatewayTest, HealthzReportsVersionAndToolCount) {
  Start();
  HttpReply reply = HttpClient(gateway_->port()).Get("/healthz");
  ASSERT_EQ(reply.status, 200) << reply.error;
  EXPECT_EQ(reply.headers["content-type"], "application/json");
  Json body = reply.json();
  EXPECT_EQ(body["status"], "ok");
  EXPECT_TRUE(body["version"].is_string() && !body["version"].get<std::string>().empty());
  EXPECT_EQ(body["tools"], runtime_->registry().size());
}

TEST_F(GatewayTest, ListsToolsInOpenAIAndAnthropicFormats) {
  Start();
  HttpClient client(gateway_->port());
  for (const char* path : {"/v1/tools", "/v1/tools?format=openai"}) {
    HttpReply reply = client.Get(path);
    ASSERT_EQ(reply.status, 200) << path << " " << reply.body;
    Json tools = reply.json();
    ASSERT_TRUE(tools.is_array()) << reply.body;
    EXPECT_EQ(tools, runtime_->ToolDefinitions({}, DefinitionFormat::kOpenAI));
    auto echo = std::find_if(tools.begin(), tools.end(), [](const Json& t) {
      return t.value("/function/name"_json_pointer, "") == "echo";
    });
    ASSERT_NE(echo, tools.end()) << reply.body;
    EXPECT_EQ((*echo)["type"], "function");
  }
  HttpReply anthropic = client.Get("/v1/tools?format=anthropic&agent=main&subagent_depth=0");
  ASSERT_EQ(anthropic.status, 200) << anthropic.body;
  Json tools = anthropic.json();
  EXPECT_EQ(tools, runtime_->ToolDefinitions({.agent_id = "main"}, DefinitionFormat::kAnthropic));
  auto echo = std::find_if(tools.begin(), tools.end(),
                           [](const Json& t) { return t.value("name", "") == "echo"; });
  ASSERT_NE(echo, tools.end()) << anthropic.body;
  EXPECT_TRUE(echo->contains("input_schema"));
}

TEST_F(GatewayTest, ExplainAndBadQueryParameters) {
  Start();
  HttpClient client(gateway_->port());
  HttpReply explain = client.Get("/v1/tools?explain=1&provider=openai");
  ASSERT_EQ(explain.status, 200) << explain.body;
  EXPECT_EQ(explain.json(), runtime_->ExplainTools({.provider = "openai"}));

  for (const char* path :
       {"/v1/tools?format=gemini", "/v1/tools?subagent_depth=x", "/v1/tools?subagent_depth=-1",
        "/v1/tools?explain=maybe", "/v1/tools?agent=%zz"}) {
    HttpReply reply = client.Get(path);
    EXPECT_EQ(reply.status, 400) << path;
    EXPECT_TRUE(reply.json().contains("error")) << path << " " << reply.body;
  }
}

TEST_F(GatewayTest, InvokeReturnsTheCliOutcomeObject) {
  Start();
  HttpReply reply = Invoke("echo", {{"args", {{"text", "hello"}}}, {"session", "s1"}});
  ASSERT_EQ(reply.status, 200) << reply.error << reply.body;
  Json body = reply.json();
  EXPECT_EQ(body["tool"], "echo");
  EXPECT_EQ(body["for_llm"], "hello");
  EXPECT_EQ(body["for_user"], "");
  EXPECT_EQ(body["is_error"], false);
  EXPECT_TRUE(body["duration_ms"].is_number());
  EXPECT_GE(body["duration_ms"].get<double>(), 0.0);
  EXPECT_EQ(body.size(), 5u) << reply.body;
}

TEST_F(GatewayTest, InvokeScrubsSecretsFromToolOutput) {
  Start();
  HttpReply reply = Invoke("leak", Json::object());
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.body.find(kFakeSecret), std::string::npos) << reply.body;
  EXPECT_NE(reply.json()["for_llm"].get<std::string>().find("the key is"), std::string::npos);
}

TEST_F(GatewayTest, ToolFailuresAreDispatchedCalls) {
  Start();
  for (const auto& [tool, body] : std::initializer_list<std::pair<std::string, Json>>{
           {"boom", Json::object()},
           {"echo", {{"args", {{"text", 5}}}}},  // schema violation, caught by the pipeline
           {"no_such_tool", Json::object()}}) {
    HttpReply reply = Invoke(tool, body);
    ASSERT_EQ(reply.status, 200) << tool << " " << reply.body;
    EXPECT_EQ(reply.json()["is_error"], true) << tool << " " << reply.body;
    EXPECT_EQ(reply.json()["tool"], tool);
    EXPECT_FALSE(reply.json()["for_llm"].get<std::string>().empty());
  }
}

TEST_F(GatewayTest, MalformedBodiesAre400WithAMessage) {
  Start();
  HttpClient client(gateway_->port());
  for (const auto& [body, needle] : std::initializer_list<std::pair<const char*, const char*>>{
           {"{\"args\": ", "not valid JSON"},
           {"[]", "JSON object"},
           {R"({"args": "hi"})", "\"args\""},
           {R"({"session": 1})", "\"session\""},
           {R"({"peer_kind": "room"})", "\"peer_kind\""},
           {R"({"subagent_depth": "2"})", "\"subagent_depth\""}}) {
    HttpReply reply = client.Post("/v1/tools/echo/invoke", body);
    EXPECT_EQ(reply.status, 400) << body;
    EXPECT_NE(reply.json().value("error", "").find(needle), std::string::npos)
        << body << " -> " << reply.body;
  }
}

TEST_F(GatewayTest, UnknownRouteWrongMethodAndOversizedBody) {
  GatewayOptions options = Options();
  options.max_body_bytes = 1024;
  Start(options);
  HttpClient client(gateway_->port());

  HttpReply missing = client.Get("/v2/nothing");
  EXPECT_EQ(missing.status, 404);
  EXPECT_TRUE(missing.json().contains("error"));

  HttpReply wrong = client.Get("/v1/tools/echo/invoke");
  EXPECT_EQ(wrong.status, 405);
  EXPECT_EQ(wrong.headers["allow"], "POST");
  EXPECT_EQ(client.Post("/healthz", "{}").status, 405);

  Json big{{"args", {{"text", std::string(4096, 'x')}}}};
  HttpReply too_big = client.Post("/v1/tools/echo/invoke", big.dump());
  EXPECT_EQ(too_big.status, 413) << too_big.error;
  EXPECT_NE(too_big.json().value("error", "").find("1024"), std::string::npos) << too_big.body;

  // Still serving, and a body under the limit passes.
  HttpReply ok =
      HttpClient(gateway_->port()).Post("/v1/tools/echo/invoke", R"({"args":{"text":"small"}})");
  EXPECT_EQ(ok.status, 200);
}

TEST_F(GatewayTest, TokenGuardsEverythingButHealthz) {
  GatewayOptions options = Options();
  options.token = "t0ken-123";
  Start(options);
  HttpClient client(gateway_->port());
  EXPECT_EQ(client.Get("/healthz").status, 200);

  for (const std::vector<std::string>& headers : {std::vector<std::string>{},
                                                  {"Authorization: Bearer wrong"},
                                                  {"Authorization: Bearer t0ken-1234"},
                                                  {"Authorization: Basic t0ken-123"}}) {
    HttpReply list = client.Get("/v1/tools", headers);
    EXPECT_EQ(list.status, 401);
    EXPECT_EQ(list.json(), (Json{{"error", "unauthorized"}}));
    EXPECT_EQ(client.Post("/v1/tools/echo/invoke", "{}", headers).status, 401);
    // Route existence is not revealed either.
    EXPECT_EQ(client.Get("/v2/nothing", headers).status, 401);
  }

  std::vector<std::string> auth{"Authorization: Bearer t0ken-123"};
  EXPECT_EQ(client.Get("/v1/tools", auth).status, 200);
  HttpReply call = client.Post("/v1/tools/echo/invoke", R"({"args":{"text":"yes"}})", auth);
  EXPECT_EQ(call.status, 200);
  EXPECT_EQ(call.json()["for_llm"], "yes");
  EXPECT_EQ(client.Get("/v2/nothing", auth).status, 404);
}

TEST_F(GatewayTest, TokenComesFromTheConfigFile) {
  auto path = std::filesystem::temp_directory_path() /
              ("clawtools-gw-config-" + std::to_string(getpid()) + ".json");
  std::ofstream(path) << R"({"gateway": {"token": "from-file"}})";
  auto runtime =
      Runtime::Create(RuntimeOptions{.config_path = path.string(), .log_level = LogLevel::kWarn});
  std::filesystem::remove(path);
  ASSERT_TRUE(runtime) << runtime.error().log_message();
  Gateway gateway(**runtime, Options());
  ASSERT_TRUE(gateway.Start());
  HttpClient client(gateway.port());
  EXPECT_EQ(client.Get("/v1/tools").status, 401);
  EXPECT_EQ(client.Get("/v1/tools", {"Authorization: Bearer from-file"}).status, 200);
  gateway.Stop();
  gateway.Wait();
}

// Also without a config file: `clawtools serve` with only CLAWTOOLS_TOKEN set must not run open.
TEST_F(GatewayTest, TokenComesFromTheEnvironmentThroughConfig) {
  setenv("CLAWTOOLS_TOKEN", "from-env", 1);
  auto runtime = Runtime::Create(RuntimeOptions{.log_level = LogLevel::kWarn});
  unsetenv("CLAWTOOLS_TOKEN");
  ASSERT_TRUE(runtime) << runtime.error().log_message();
  ASSERT_EQ((*runtime)->config().gateway_token(), "from-env");
  Gateway gateway(**runtime, Options());
  ASSERT_TRUE(gateway.Start());
  HttpClient client(gateway.port());
  EXPECT_EQ(client.Get("/v1/tools").status, 401);
  EXPECT_EQ(client.Get("/v1/tools", {"Authorization: Bearer from-env"}).status, 200);
  gateway.Stop();
  gateway.Wait();
}

TEST_F(GatewayTest, RefusesNonLoopbackWithoutToken) {
  GatewayOptions options = Options();
  options.listen = "0.0.0.0:0";
  Gateway gateway(*runtime_, options);
  auto started = gateway.Start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().code, ErrorCode::kPermissionDenied);
  EXPECT_NE(started.error().for_model.find("token"), std::string::npos);
  EXPECT_NE(RunGateway(*runtime_, options), 0);

  options.token = "t";
  Gateway guarded(*runtime_, options);
  ASSERT_TRUE(guarded.Start());
  EXPECT_EQ(HttpClient(guarded.port()).Get("/healthz").status, 200);
  guarded.Stop();
  guarded.Wait();
}

TEST_F(GatewayTest, RejectsBadListenAddressesAndBusyPorts) {
  GatewayOptions options = Options();
  options.listen = "nowhere";
  EXPECT_FALSE(Gateway(*runtime_, options).Start());
  Start();
  options.listen = "127.0.0.1:" + std::to_string(gateway_->port());
  auto busy = Gateway(*runtime_, options).Start();
  ASSERT_FALSE(busy);
  EXPECT_NE(busy.error().for_model.find("cannot listen"), std::string::npos);
}

TEST_F(GatewayTest, KeepAliveReusesTheConnection) {
  Start();
  HttpClient client(gateway_->port());
  EXPECT_EQ(client.Get("/healthz").status, 200);
  HttpReply second = client.Post("/v1/tools/echo/invoke", R"({"args":{"text":"again"}})");
  EXPECT_EQ(second.status, 200);
  EXPECT_EQ(second.new_connections, 0);
  HttpReply third = client.Get("/healthz");
  EXPECT_EQ(third.new_connections, 0);
}

// A pool worker writes a response only as far as the socket takes it without blocking; a
// client that reads late gets the rest from the io thread, intact, and the connection lives on.
TEST_F(GatewayTest, LargeResponsesToSlowReadersArriveWhole) {
  const std::string big(16 << 20, 'x');  // more than the send and receive buffers hold
  ASSERT_TRUE(runtime_->registry().Register(std::make_shared<FunctionTool>(
      "big", ObjectSchema(),
      [&big](const CallContext&, const Json&) { return Result::Text(big); })));
  Start();
  int fd = ConnectRaw(gateway_->port());
  ASSERT_GE(fd, 0);
  const std::string body = R"({"args":{}})";
  auto request = [&](const char* connection) {
    return "POST /v1/tools/big/invoke HTTP/1.1\r\nHost: x\r\nConnection: " +
           std::string(connection) +
           "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\n\r\n" + body;
  };
  std::string twice = request("keep-alive") + request("close");
  ASSERT_EQ(::write(fd, twice.data(), twice.size()), static_cast<ssize_t>(twice.size()));
  std::this_thread::sleep_for(300ms);  // the worker fills the socket buffer and gives up
  bool closed = false;
  std::string got = ReadAll(fd, 20000, &closed);  // returns when the server closes
  ::close(fd);
  // Both responses, each with the whole body.
  size_t first = got.find("HTTP/1.1 200");
  size_t second = got.find("HTTP/1.1 200", first + 1);
  ASSERT_NE(first, std::string::npos) << got.substr(0, 200);
  ASSERT_NE(second, std::string::npos);
  EXPECT_TRUE(closed);
  size_t one = got.find(big, first);
  ASSERT_NE(one, std::string::npos);
  EXPECT_LT(one, second);
  EXPECT_NE(got.find(big, second), std::string::npos);
}

TEST_F(GatewayTest, ExpectContinueDoesNotStall) {
  Start();
  Json body{{"args", {{"text", std::string(3000, 'y')}}}};
  auto start = Clock::now();
  HttpReply reply = HttpClient(gateway_->port())
                        .Post("/v1/tools/echo/invoke", body.dump(), {"Expect: 100-continue"});
  EXPECT_EQ(reply.status, 200);
  // curl waits 1 s for "100 Continue" before sending the body anyway.
  EXPECT_LT(Clock::now() - start, 900ms);
}

TEST_F(GatewayTest, ManyConcurrentCallsAllSucceed) {
  Start();
  constexpr int kThreads = 8;
  constexpr int kCalls = 50;
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      HttpClient client(gateway_->port());
      for (int i = 0; i < kCalls; ++i) {
        std::string text = std::to_string(t) + "-" + std::to_string(i);
        HttpReply reply =
            client.Post("/v1/tools/echo/invoke", Json{{"args", {{"text", text}}}}.dump());
        if (reply.status == 200 && reply.json()["for_llm"] == text) ++ok;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(ok.load(), kThreads * kCalls);
}

TEST_F(GatewayTest, SlowToolsDoNotBlockHealthz) {
  GatewayOptions options = Options();
  options.worker_threads = 2;
  Start(options);
  std::vector<std::future<HttpReply>> slow;
  for (int i = 0; i < 2; ++i) {
    slow.push_back(std::async(std::launch::async, [&] {
      return Invoke("slow", {{"args", {{"ms", 1500}}}});
    }));
  }
  WaitFor([] { return slow_started.load() == 2; });
  ASSERT_EQ(slow_started.load(), 2);

  // Every worker is busy; the io threads still answer.
  HttpClient client(gateway_->port());
  for (int i = 0; i < 5; ++i) {
    auto start = Clock::now();
    EXPECT_EQ(client.Get("/healthz").status, 200);
    EXPECT_LT(Clock::now() - start, 500ms);
  }
  for (auto& f : slow) {
    HttpReply reply = f.get();
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.json()["for_llm"], "done");
  }
}

TEST_F(GatewayTest, StopLetsInFlightCallsFinish) {
  Start();
  uint16_t port = gateway_->port();
  auto slow = std::async(std::launch::async, [&] {
    return Invoke("slow", {{"args", {{"ms", 800}}}});
  });
  WaitFor([] { return slow_started.load() == 1; });
  ASSERT_EQ(slow_started.load(), 1);

  auto stop_at = Clock::now();
  gateway_->Stop();
  // New connections are refused once the acceptor is closed.
  bool refused = false;
  WaitFor([&] { return refused = HttpClient(port).Get("/healthz").status == 0; }, 2s);
  EXPECT_TRUE(refused);

  HttpReply reply = slow.get();
  EXPECT_EQ(reply.status, 200) << reply.error;
  EXPECT_EQ(reply.json()["for_llm"], "done");
  gateway_->Wait();
  EXPECT_LT(Clock::now() - stop_at, 5s);
  EXPECT_EQ(slow_cancelled.load(), 0);
}

TEST_F(GatewayTest, StopCancelsCallsThatOutliveTheGrace) {
  GatewayOptions options = Options();
  options.shutdown_grace = 200ms;
  Start(options);
  auto slow = std::async(std::launch::async, [&] {
    return Invoke("slow", {{"args", {{"ms", 20000}}}});
  });
  WaitFor([] { return slow_started.load() == 1; });
  auto stop_at = Clock::now();
  gateway_->Stop();
  gateway_->Wait();
  EXPECT_LT(Clock::now() - stop_at, 5s);
  EXPECT_EQ(slow_cancelled.load(), 1);
  EXPECT_EQ(slow.get().status, 0);  // abandoned: the connection closed without an answer
}

TEST_F(GatewayTest, IdleKeepAliveConnectionsDoNotDelayStop) {
  Start();
  HttpClient client(gateway_->port());
  ASSERT_EQ(client.Get("/healthz").status, 200);  // leaves an idle keep-alive connection
  auto stop_at = Clock::now();
  gateway_->Stop();
  gateway_->Wait();
  EXPECT_LT(Clock::now() - stop_at, 1s);
}

TEST_F(GatewayTest, RunGatewayStopsGracefullyOnSigterm) {
  auto dir = std::filesystem::temp_directory_path() / ("clawtools-gw-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  GatewayOptions options = Options();
  options.port_file = (dir / "port").string();
  auto run = std::async(std::launch::async, [&] { return RunGateway(*runtime_, options); });

  WaitFor([&] { return std::filesystem::exists(options.port_file); });
  int port = 0;
  std::ifstream(options.port_file) >> port;
  ASSERT_GT(port, 0);
  auto slow = std::async(std::launch::async, [&] {
    return HttpClient(static_cast<uint16_t>(port))
        .Post("/v1/tools/slow/invoke", R"({"args":{"ms":600}})");
  });
  WaitFor([] { return slow_started.load() == 1; });
  ASSERT_EQ(slow_started.load(), 1);

  ASSERT_EQ(kill(getpid(), SIGTERM), 0);
  EXPECT_EQ(run.get(), 0);
  HttpReply reply = slow.get();
  EXPECT_EQ(reply.status, 200) << reply.error;
  EXPECT_EQ(reply.json()["for_llm"], "done");
  std::filesystem::remove_all(dir);
}

TEST_F(GatewayTest, SlowHeadersAreDropped) {
  GatewayOptions options = Options();
  options.header_timeout = 300ms;
  Start(options);
  int fd = ConnectRaw(gateway_->port());
  ASSERT_GE(fd, 0);
  std::string partial = "GET /healthz HTTP/1.1\r\nHost: x\r\n";
  ASSERT_EQ(send(fd, partial.data(), partial.size(), 0), static_cast<ssize_t>(partial.size()));
  auto start = Clock::now();
  bool closed = false;
  std::string got = ReadAll(fd, 5000, &closed);
  close(fd);
  EXPECT_TRUE(closed);
  EXPECT_EQ(got, "");
  EXPECT_GE(Clock::now() - start, 250ms);
  EXPECT_LT(Clock::now() - start, 3s);
}

TEST_F(GatewayTest, OversizedHeadersAndGarbageAreRejected) {
  GatewayOptions options = Options();
  options.max_header_bytes = 1024;
  Start(options);
  HttpReply big =
      HttpClient(gateway_->port()).Get("/healthz", {"X-Big: " + std::string(4000, 'h')});
  EXPECT_EQ(big.status, 431) << big.error;

  int fd = ConnectRaw(gateway_->port());
  ASSERT_GE(fd, 0);
  std::string garbage = "HELLO THERE\r\n\r\n";
  send(fd, garbage.data(), garbage.size(), 0);
  bool closed = false;
  std::string got = ReadAll(fd, 3000, &closed);
  close(fd);
  EXPECT_EQ(got.rfind("HTTP/1.1 400", 0), 0u) << got;
}

TEST_F(GatewayTest, ConnectionsBeyondTheLimitGet503) {
  GatewayOptions options = Options();
  options.max_connections = 1;
  Start(options);
  int fd = ConnectRaw(gateway_->port());
  ASSERT_GE(fd, 0);
  // Let the server register the idle connection.
  std::this_thread::sleep_for(100ms);
  HttpReply busy = HttpClient(gateway_->port()).Get("/healthz");
  EXPECT_EQ(busy.status, 503);
  close(fd);
  int status = 0;
  WaitFor([&] { return (status = HttpClient(gateway_->port()).Get("/healthz").status) == 200; });
  EXPECT_EQ(status, 200);
}

TEST_F(GatewayTest, HandlerExceptionsBecome500) {
  gateway_ = std::make_unique<Gateway>(*runtime_, Options());
  gateway_->router().Add("GET", "/v1/broken", [](const HttpRequest&) -> HttpResponse {
    throw std::runtime_error("handler bug");
  });
  ASSERT_TRUE(gateway_->Start());
  HttpReply reply = HttpClient(gateway_->port()).Get("/v1/broken");
  EXPECT_EQ(reply.status, 500);
  EXPECT_EQ(reply.json(), (Json{{"error", "internal error"}}));
  EXPECT_EQ(HttpClient(gateway_->port()).Get("/healthz").status, 200);
}

}  // namespace
}  // namespace clawtools
