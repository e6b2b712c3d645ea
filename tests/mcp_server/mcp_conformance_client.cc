// The client side of the conformance suite: `conformance client --command "<this> " ...` runs
// it with the scenario server's URL as the last argument and MCP_CONFORMANCE_SCENARIO set. It
// drives clawtools' own McpClient over streamable HTTP: initialize, tools/list, and for the
// tools_call scenario a call of add_numbers. Exit 0 when every step succeeded.
#include <cstdlib>
#include <iostream>

#include "mcp/client.h"
#include "mcp/server_config.h"

int main(int argc, char** argv) {
  using namespace clawtools;
  if (argc < 2) {
    std::cerr << "usage: mcp_conformance_client URL\n";
    return 2;
  }
  const char* env = std::getenv("MCP_CONFORMANCE_SCENARIO");
  std::string scenario = env ? env : "";
  mcp::McpServerConfig server;
  server.name = "conformance";
  server.transport = mcp::TransportKind::kStreamableHttp;
  server.url = argv[argc - 1];
  auto transport = mcp::MakeTransport(server, nullptr, std::chrono::seconds(10));
  if (!transport) {
    std::cerr << transport.error().log_message() << "\n";
    return 1;
  }
  auto client = mcp::McpClient::Connect(std::move(*transport),
                                        {.client_info = {"clawtools-conformance", "0"}});
  if (!client) {
    std::cerr << "connect: " << client.error().log_message() << "\n";
    return 1;
  }
  auto tools = (*client)->ListTools(std::chrono::seconds(10));
  if (!tools) {
    std::cerr << "tools/list: " << tools.error().log_message() << "\n";
    return 1;
  }
  for (const auto& t : *tools) {
    if (t.name != "add_numbers") continue;
    auto r = (*client)->CallTool(
        "add_numbers", {{"a", 2}, {"b", 3}},
        {.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10)});
    if (!r) {
      std::cerr << "tools/call: " << r.error().log_message() << "\n";
      return 1;
    }
    std::cerr << scenario << ": " << r->dump() << "\n";
  }
  (*client)->Close();
  return 0;
}
