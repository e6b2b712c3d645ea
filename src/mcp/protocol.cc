#include "mcp/protocol.h"

#include <algorithm>
#include <array>

namespace clawtools::mcp {
namespace {

constexpr std::array<std::string_view, 4> kVersions = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                       "2024-11-05"};

}  // namespace

std::span<const std::string_view> SupportedProtocolVersions() {
  return kVersions;
}

bool IsSupportedProtocolVersion(std::string_view v) {
  return std::ranges::find(kVersions, v) != kVersions.end();
}

Expected<std::string> AcceptServerVersion(std::string_view v) {
  if (IsSupportedProtocolVersion(v)) return std::string(v);
  std::string list;
  for (auto s : kVersions) list += (list.empty() ? "" : ", ") + std::string(s);
  return Fail(ErrorCode::kUnavailable, "MCP server answered protocol version \"" + std::string(v) +
                                           "\"; clawtools speaks " + list);
}

std::string NegotiateServerVersion(std::string_view client_version) {
  return std::string(IsSupportedProtocolVersion(client_version) ? client_version
                                                                : kLatestProtocolVersion);
}

bool HasMcpProtocolVersionHeader(std::string_view v) {
  return v >= "2025-06-18";
}
bool HasStructuredContent(std::string_view v) {
  return v >= "2025-06-18";
}

Json InitializeParams(const ClientInfo& info, std::string_view version) {
  return {{"protocolVersion", version},
          {"capabilities", {{"roots", {{"listChanged", false}}}}},
          {"clientInfo",
           {{"name", info.name}, {"version", info.version.empty() ? "0" : info.version}}}};
}

}  // namespace clawtools::mcp
