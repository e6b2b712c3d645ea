// One MCP server definition, from the config file (`tools.mcp_servers.<name>`) or the store
// (`mcp_servers`), and the transport it calls for.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/call_log.h"
#include "core/error.h"
#include "core/json.h"
#include "mcp/transport.h"

namespace clawtools::mcp {

enum class TransportKind { kStdio, kSse, kStreamableHttp };

const char* TransportKindName(TransportKind kind);
std::optional<TransportKind> ParseTransportKind(std::string_view s);

struct McpServerConfig {
  std::string name;
  TransportKind transport = TransportKind::kStdio;
  std::string command;
  std::vector<std::string> args;
  std::map<std::string, std::string> env;
  std::string url;
  std::map<std::string, std::string> headers;
  bool enabled = true;
  std::string tool_prefix;
  std::chrono::seconds timeout{60};  // per tool call
};

// `tools.mcp_servers` of a validated config (an object keyed by server name). The transport
// defaults to stdio with a command, else streamable-http with a url.
Expected<std::vector<McpServerConfig>> ParseMcpServers(const Json& mcp_servers);

// The transport for a server definition.
Expected<std::unique_ptr<Transport>> MakeTransport(const McpServerConfig& server,
                                                   std::shared_ptr<CallLog> log,
                                                   std::chrono::milliseconds connect_timeout);

}  // namespace clawtools::mcp
