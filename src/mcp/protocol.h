// MCP protocol revisions and version negotiation, for both ends of a connection.
//
// Client: offer the newest revision; accept whatever supported revision the server answers
// with; refuse an unknown one. Server: answer the client's revision when supported, else our
// newest (the client then decides). The 2026-07-28 stateless revision (no initialize; per-
// request `_meta`; server/discover) is not spoken yet: a server that only speaks it is refused
// with a clear error rather than half-supported.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/json.h"

namespace clawtools::mcp {

inline constexpr std::string_view kLatestProtocolVersion = "2025-11-25";

// Newest first.
std::span<const std::string_view> SupportedProtocolVersions();
bool IsSupportedProtocolVersion(std::string_view version);

// The client's check of the server's initialize answer.
Expected<std::string> AcceptServerVersion(std::string_view server_version);
// The server's choice for a client's requested version.
std::string NegotiateServerVersion(std::string_view client_version);

// Whether a revision has the features that changed over time.
bool HasMcpProtocolVersionHeader(std::string_view version);  // 2025-06-18+
bool HasStructuredContent(std::string_view version);         // 2025-06-18+

struct ClientInfo {
  std::string name = "clawtools";
  std::string version;
};

// initialize params: our version offer, identity and capabilities (roots without listChanged;
// no sampling/elicitation: a tool bridge has no model or user to hand those to).
Json InitializeParams(const ClientInfo& info, std::string_view version = kLatestProtocolVersion);

}  // namespace clawtools::mcp
