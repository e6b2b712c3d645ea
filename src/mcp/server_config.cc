#include "mcp/server_config.h"

#include "mcp/sse_transport.h"
#include "mcp/stdio_transport.h"
#include "mcp/streamable_http_transport.h"

namespace clawtools::mcp {

const char* TransportKindName(TransportKind kind) {
  switch (kind) {
    case TransportKind::kStdio:
      return "stdio";
    case TransportKind::kSse:
      return "sse";
    case TransportKind::kStreamableHttp:
      return "streamable-http";
  }
  return "stdio";
}

std::optional<TransportKind> ParseTransportKind(std::string_view s) {
  if (s == "stdio") return TransportKind::kStdio;
  if (s == "sse") return TransportKind::kSse;
  if (s == "streamable-http") return TransportKind::kStreamableHttp;
  return std::nullopt;
}

Expected<std::vector<McpServerConfig>> ParseMcpServers(const Json& servers) {
  std::vector<McpServerConfig> out;
  if (servers.is_null()) return out;
  if (!servers.is_object())
    return Fail(ErrorCode::kInvalidArgument, "tools.mcp_servers must be an object");
  for (const auto& [name, s] : servers.items()) {
    std::string where = "tools.mcp_servers." + name;
    if (!s.is_object()) return Fail(ErrorCode::kInvalidArgument, where + " must be an object");
    try {
      McpServerConfig c;
      c.name = name;
      c.command = s.value("command", "");
      c.url = s.value("url", "");
      std::string t = s.value("transport", c.command.empty() ? "streamable-http" : "stdio");
      auto kind = ParseTransportKind(t);
      if (!kind)
        return Fail(ErrorCode::kInvalidArgument,
                    where + ".transport: unknown transport \"" + t + "\"");
      c.transport = *kind;
      if (s.contains("args")) c.args = s["args"].get<std::vector<std::string>>();
      if (s.contains("env")) c.env = s["env"].get<std::map<std::string, std::string>>();
      if (s.contains("headers")) c.headers = s["headers"].get<std::map<std::string, std::string>>();
      c.enabled = s.value("enabled", true);
      c.tool_prefix = s.value("tool_prefix", "");
      c.timeout = std::chrono::seconds(s.value("timeout_sec", 60));
      if (c.transport == TransportKind::kStdio && c.command.empty()) {
        return Fail(ErrorCode::kInvalidArgument, where + ": a stdio server needs \"command\"");
      }
      if (c.transport != TransportKind::kStdio && c.url.empty()) {
        return Fail(ErrorCode::kInvalidArgument, where + ": an HTTP server needs \"url\"");
      }
      out.push_back(std::move(c));
    } catch (const Json::exception& e) {
      return Fail(ErrorCode::kInvalidArgument, where + ": wrong type", e.what());
    }
  }
  return out;
}

Expected<std::unique_ptr<Transport>> MakeTransport(const McpServerConfig& s,
                                                   std::shared_ptr<CallLog> log,
                                                   std::chrono::milliseconds connect_timeout) {
  if (s.transport == TransportKind::kStdio) {
    return std::make_unique<StdioTransport>(SpawnSpec{s.command, s.args, s.env}, std::move(log));
  }
  HttpTransportOptions o{s.url, s.headers, connect_timeout, std::move(log)};
  if (s.transport == TransportKind::kSse) return std::make_unique<SseTransport>(std::move(o));
  return std::make_unique<StreamableHttpTransport>(std::move(o));
}

}  // namespace clawtools::mcp
