// A clawtools MCP server for the conformance suite, the end-to-end tests and the benchmarks:
// the real Runtime (config, policy, rate limit, scrubbing) plus test-only fixture tools
// registered here, never in production code. This is the documented test hook: fixture tools
// go into Runtime::registry() after Create, so they run through the same filter chain.
//
//   mcp_fixture_server --config F (--stdio | --http --port-file P) [--agent ID] [--user ID]
//
// Fixtures: the tools the conformance server scenarios call (test_simple_text,
// test_error_handling, json_schema_2020_12_tool) and `echo` for the benchmarks. HTTP mode
// serves /mcp (gateway/mcp_routes.h) on the gateway until SIGTERM/SIGINT; the process dies
// with its parent, so a crashed test leaves nothing behind.
#include <sys/prctl.h>

#include <csignal>
#include <cstring>
#include <iostream>

#include "gateway/gateway.h"
#include "gateway/admin_mcp_routes.h"
#include "gateway/mcp_routes.h"
#include "mcp/server_stdio.h"
#include "mcp_server/runtime_backend.h"
#include "runtime/runtime.h"

namespace {

using namespace clawtools;

class FixtureTool final : public SimpleTool {
 public:
  FixtureTool(std::string name, std::string description, Json schema,
              std::function<Result(const Json&)> run)
      : SimpleTool(std::move(name), std::move(description), std::move(schema)),
        run_(std::move(run)) {}
  Result Execute(const CallContext&, const Json& args) const override { return run_(args); }

 private:
  std::function<Result(const Json&)> run_;
};

void RegisterFixtures(Registry& reg) {
  Json empty = {{"type", "object"}, {"properties", Json::object()}};
  (void)reg.Register(std::make_shared<FixtureTool>(
      "test_simple_text", "Returns a fixed text (conformance fixture)", empty,
      [](const Json&) { return Result::Text("This is a simple text response for testing."); }));
  (void)reg.Register(std::make_shared<FixtureTool>(
      "test_error_handling", "Always fails (conformance fixture)", empty, [](const Json&) {
        return Result::Fail("This tool intentionally returns an error for testing");
      }));
  Json schema2020 = Json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {"address": {"type": "object",
                          "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
    "additionalProperties": false})");
  (void)reg.Register(std::make_shared<FixtureTool>(
      "json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", schema2020,
      [](const Json& args) { return Result::Text(args.dump()); }));
  (void)reg.Register(std::make_shared<FixtureTool>(
      "echo", "Echoes `text`",
      Json{{"type", "object"},
           {"properties", {{"text", {{"type", "string"}}}}},
           {"required", {"text"}}},
      [](const Json& args) { return Result::Text(args.value("text", "")); }));
}

}  // namespace

int main(int argc, char** argv) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  std::string config, port_file, agent, user;
  bool stdio = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--config") config = next();
    else if (a == "--port-file") port_file = next();
    else if (a == "--agent") agent = next();
    else if (a == "--user") user = next();
    else if (a == "--stdio") stdio = true;
    else if (a != "--http") {
      std::cerr << "usage: mcp_fixture_server --config F (--stdio | --http --port-file P)\n";
      return 2;
    }
  }
  auto runtime = Runtime::Create({.config_path = config, .log_level = LogLevel::kWarn});
  if (!runtime) {
    std::cerr << "mcp_fixture_server: " << runtime.error().log_message() << "\n";
    return 1;
  }
  RegisterFixtures((*runtime)->registry());
  // Managed mode: store servers are reached through grants only (AgentMcpResolver). Until the
  // runtime loads only config-file servers globally, stop its manager here (test configs
  // define no config-file servers), or every agent would see every store server.
  (*runtime)->mcp().Shutdown();

  if (stdio) {
    std::signal(SIGPIPE, SIG_IGN);
    mcp::AgentMcpResolver resolver((*runtime)->registry(), (*runtime)->store());
    mcp::McpServerSession session(
        std::make_shared<mcp::RuntimeToolBackend>(**runtime, mcp::McpCaller{agent, user}, &resolver),
        {.server_name = "clawtools-fixture"});
    return mcp::ServeStdio(session, 0, 1) ? 0 : 1;
  }

  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);  // inherited by the gateway's threads
  GatewayOptions opts;
  opts.listen = "127.0.0.1:0";
  opts.port_file = port_file;
  opts.io_threads = 1;
  opts.worker_threads = 4;
  Gateway gateway(**runtime, opts);
  // Managed mode as the runtime should wire it: store grants resolve per (agent, user).
  mcp::AgentMcpResolver resolver((*runtime)->registry(), (*runtime)->store());
  AddMcpRoutes(gateway.router(), **runtime, {.resolver = &resolver});
  AddAdminMcpRoutes(gateway.router(), **runtime);
  if (auto st = gateway.Start(); !st) {
    std::cerr << "mcp_fixture_server: " << st.error().log_message() << "\n";
    return 1;
  }
  int sig = 0;
  sigwait(&set, &sig);
  gateway.Stop();
  gateway.Wait();
  return 0;
}
