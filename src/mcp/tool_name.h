// Registry names for MCP tools.
//
// `mcp_<server>_<tool>` as the seed documents it (GoClaw's code used "__" and let any byte
// through). A tool_prefix replaces `mcp_<server>`; it gains `mcp_` when it lacks it. The result
// is made acceptable to every provider (`^[a-zA-Z0-9_-]{1,64}$`): other bytes become '_', and a
// name that is too long or collides gets a short hash of "<server>/<tool>" so it stays stable
// across restarts.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace clawtools::mcp {

// `mcp_<server>` or the normalised prefix; sanitised.
std::string ToolNameBase(std::string_view prefix, std::string_view server);

// The preferred name: base + "_" + tool, sanitised, hashed down to 64 bytes when longer.
std::string BridgeToolName(std::string_view prefix, std::string_view server, std::string_view tool);

// Same, but when `taken(name)` says the preferred name belongs to something else, the hashed
// variant is used.
std::string UniqueBridgeToolName(std::string_view prefix, std::string_view server,
                                 std::string_view tool,
                                 const std::function<bool(const std::string&)>& taken);

bool IsProviderSafeName(std::string_view name);

// First 8 hex digits of SHA-256(text).
std::string ShortHash(std::string_view text);

}  // namespace clawtools::mcp
