#include "mcp/tool_name.h"

#include <openssl/evp.h>

#include <cctype>

namespace clawtools::mcp {
namespace {

constexpr size_t kMaxName = 64;

bool SafeChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

std::string Sanitise(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (!SafeChar(c)) c = '_';
  }
  return out;
}

std::string Hashed(const std::string& name, std::string_view server, std::string_view tool) {
  std::string suffix = "_" + ShortHash(std::string(server) + "/" + std::string(tool));
  return name.substr(0, std::min(name.size(), kMaxName - suffix.size())) + suffix;
}

}  // namespace

std::string ShortHash(std::string_view text) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(text.data(), text.size(), md, &len, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 4; ++i) {
    out.push_back(kHex[md[i] >> 4]);
    out.push_back(kHex[md[i] & 15]);
  }
  return out;
}

bool IsProviderSafeName(std::string_view name) {
  if (name.empty() || name.size() > kMaxName) return false;
  for (char c : name) {
    if (!SafeChar(c)) return false;
  }
  return true;
}

std::string ToolNameBase(std::string_view prefix, std::string_view server) {
  if (prefix.empty()) return "mcp_" + Sanitise(server);
  std::string p = Sanitise(prefix);
  return p.starts_with("mcp_") ? p : "mcp_" + p;
}

std::string BridgeToolName(std::string_view prefix, std::string_view server,
                           std::string_view tool) {
  std::string name = ToolNameBase(prefix, server) + "_" + Sanitise(tool);
  return name.size() <= kMaxName ? name : Hashed(name, server, tool);
}

std::string UniqueBridgeToolName(std::string_view prefix, std::string_view server,
                                 std::string_view tool,
                                 const std::function<bool(const std::string&)>& taken) {
  std::string name = BridgeToolName(prefix, server, tool);
  if (!taken(name)) return name;
  return Hashed(ToolNameBase(prefix, server) + "_" + Sanitise(tool), server, tool);
}

}  // namespace clawtools::mcp
