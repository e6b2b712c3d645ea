// Tool groups: named sets of tool names usable as "group:<name>" in every policy list.
//
// Built-in groups are the seed's table and never change. Dynamic groups ("mcp" and
// "mcp:<server>") are not registered anywhere: the policy engine derives them from the tools of
// the registry it evaluates (Tool::dynamic_group), so they always match the tools really there
// and one agent's MCP servers never reach another agent's groups (GoClaw kept them in a global
// map, so they did).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace clawtools {

inline constexpr std::string_view kGroupPrefix = "group:";

class ToolGroups {
 public:
  using Members = std::vector<std::string>;

  // Built-in group members by bare name ("fs", not "group:fs"); nullptr when not built in.
  static const Members* Builtin(std::string_view name);
  // Built-in group names, sorted, bare.
  static std::span<const std::string> BuiltinNames();
  // "mcp" or "mcp:<server>" with a non-empty server: the only unknown groups a config may name
  // (the MCP servers connect later).
  static bool IsDynamicName(std::string_view name);
  // Every native tool name and the aliases GoClaw registers (bash, Read, ...): the names a
  // config may use without a warning.
  static bool IsKnownToolName(std::string_view name);
  static std::span<const std::string> KnownToolNames();
};

}  // namespace clawtools
