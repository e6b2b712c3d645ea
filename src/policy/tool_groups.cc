#include "policy/tool_groups.h"

#include <algorithm>
#include <map>
#include <set>

namespace clawtools {
namespace {

struct BuiltinTable {
  std::map<std::string, ToolGroups::Members, std::less<>> groups;
  std::vector<std::string> names;
  std::vector<std::string> known_tools;  // sorted
};

// The seed's tool table (03-tools-system.md section 2), which is also GoClaw V0's
// TOOL_GROUPS. GoClaw V3 code has different groups than its own docs; we follow the seed.
const BuiltinTable& Table() {
  static const BuiltinTable table = [] {
    BuiltinTable t;
    t.groups = {
        {"fs", {"read_file", "write_file", "list_files", "edit_file", "search", "glob"}},
        {"runtime", {"exec", "process"}},
        {"web", {"web_search", "web_fetch"}},
        {"memory", {"memory_search", "memory_get"}},
        {"sessions",
         {"sessions_list", "sessions_history", "sessions_send", "sessions_spawn", "subagents",
          "session_status"}},
        {"ui", {"browser", "canvas"}},
        {"automation", {"cron", "gateway"}},
        {"messaging", {"message"}},
    };
    // "All native tools": every grouped tool plus the seed's "other tools".
    std::set<std::string> native = {"skill_search", "image", "tts", "spawn", "nodes"};
    for (const auto& [name, members] : t.groups) native.insert(members.begin(), members.end());
    t.groups["goclaw"] = {native.begin(), native.end()};
    for (const auto& [name, members] : t.groups) t.names.push_back(name);

    // Names a config may use without a warning: native tools, the subagent lists' names that
    // are not tools here, and the aliases GoClaw registers (goclaw-facts 1.4).
    std::set<std::string> known = native;
    known.insert({"agents_list", "whatsapp_login", "subagent", "apply_patch", "edit", "bash",
                  "Bash", "Read", "Write", "Edit", "WebFetch", "WebSearch", "Agent", "Skill",
                  "ToolSearch", "apply-patch", "use_skill", "mcp_tool_search"});
    t.known_tools = {known.begin(), known.end()};
    return t;
  }();
  return table;
}

}  // namespace

const ToolGroups::Members* ToolGroups::Builtin(std::string_view name) {
  const auto& groups = Table().groups;
  auto it = groups.find(name);
  return it == groups.end() ? nullptr : &it->second;
}

std::span<const std::string> ToolGroups::BuiltinNames() {
  return Table().names;
}

bool ToolGroups::IsDynamicName(std::string_view name) {
  if (name == "mcp") return true;
  constexpr std::string_view kServerPrefix = "mcp:";
  return name.size() > kServerPrefix.size() && name.starts_with(kServerPrefix);
}

bool ToolGroups::IsKnownToolName(std::string_view name) {
  const auto& known = Table().known_tools;
  return std::binary_search(known.begin(), known.end(), name, std::less<>());
}

std::span<const std::string> ToolGroups::KnownToolNames() {
  return Table().known_tools;
}

}  // namespace clawtools
