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
#include <fstream>
#include <iostream>

#include "gateway/admin_mcp_routes.h"
#include "gateway/gateway.h"
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

// Writes a fixture media file into the workspace; returns its path.
std::string WriteMedia(const std::string& dir, const std::string& name, std::string_view bytes) {
  std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

void RegisterFixtures(Registry& reg, const std::string& workspace) {
  // A 1x1 PNG and a 44-byte WAV header: enough for the suite's content-type checks.
  static constexpr unsigned char kPng[] = {
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
      0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00,
      0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78,
      0x9c, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00,
      0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
  const std::string png =
      WriteMedia(workspace, ".fixture.png", {reinterpret_cast<const char*>(kPng), sizeof kPng});
  const std::string wav = WriteMedia(
      workspace, ".fixture.wav",
      std::string_view("RIFF$\0\0\0WAVEfmt "
                       "\x10\0\0\0\x01\0\x01\0\x40\x1f\0\0\x80\x3e\0\0\x02\0\x10\0data\0\0\0\0",
                       44));
  const std::string txt = WriteMedia(workspace, ".fixture.txt", "fixture resource text");
  auto media = [](std::string text, std::vector<MediaFile> files) {
    Result r = Result::Text(std::move(text));
    r.media = std::move(files);
    return r;
  };
  Json empty = {{"type", "object"}, {"properties", Json::object()}};
  (void)reg.Register(std::make_shared<FixtureTool>(
      "test_simple_text", "Returns a fixed text (conformance fixture)", empty,
      [](const Json&) { return Result::Text("This is a simple text response for testing."); }));
  (void)reg.Register(std::make_shared<FixtureTool>(
      "test_image_content", "Returns an image (conformance fixture)", empty, [=](const Json&) {
        return media("", {{png, "image/png"}});
      }));
  (void)reg.Register(std::make_shared<FixtureTool>(
      "test_audio_content", "Returns audio (conformance fixture)", empty, [=](const Json&) {
        return media("", {{wav, "audio/wav"}});
      }));
  (void)reg.Register(std::make_shared<FixtureTool>(
      "test_embedded_resource", "Returns an embedded resource (conformance fixture)", empty,
      [=](const Json&) {
        return media("", {{txt, "text/plain"}});
      }));
  (void)reg.Register(std::make_shared<FixtureTool>(
      "test_multiple_content_types", "Returns text, an image and a resource (conformance fixture)",
      empty, [=](const Json&) {
        return media("Multiple content types test:", {{png, "image/png"}, {txt, "text/plain"}});
      }));
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
    if (a == "--config")
      config = next();
    else if (a == "--port-file")
      port_file = next();
    else if (a == "--agent")
      agent = next();
    else if (a == "--user")
      user = next();
    else if (a == "--stdio")
      stdio = true;
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
  RegisterFixtures((*runtime)->registry(), (*runtime)->workspace());
  // Managed mode: store servers are reached through grants only (AgentMcpResolver). Until the
  // runtime loads only config-file servers globally, stop its manager here (test configs
  // define no config-file servers), or every agent would see every store server.
  (*runtime)->mcp().Shutdown();

  if (stdio) {
    std::signal(SIGPIPE, SIG_IGN);
    mcp::AgentMcpResolver resolver((*runtime)->store());
    mcp::McpServerSession session(std::make_shared<mcp::RuntimeToolBackend>(
                                      **runtime, mcp::McpCaller{agent, user}, &resolver),
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
  mcp::AgentMcpResolver resolver((*runtime)->store());
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
