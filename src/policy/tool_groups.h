// Tool groups: named sets of tool names usable as "group:<name>" in every policy list.
//
// Built-in groups are the seed's table and never change. Dynamic groups ("mcp" and
// "mcp:<server>") are registered at runtime by the MCP manager. A ToolGroups instance belongs to
// one PolicyEngine (one per registry or agent resolution), never to the process: GoClaw kept
// them in a global map, so one agent's MCP servers leaked into every other agent's groups.
//
// Thread-safe. Readers take a Snapshot (one refcount increment under a shared lock) and use it
// without further locking; writers copy the map, so a snapshot never changes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace clawtools {

inline constexpr std::string_view kGroupPrefix = "group:";

class ToolGroups {
 public:
  using Members = std::vector<std::string>;
  using DynamicMap = std::map<std::string, Members, std::less<>>;

  // Built-in group members by bare name ("fs", not "group:fs"); nullptr when not built in.
  static const Members* Builtin(std::string_view name);
  // Built-in group names, sorted, bare.
  static std::span<const std::string> BuiltinNames();
  // "mcp" or "mcp:<server>" with a non-empty server: the only names Register accepts and
  // the only unknown groups a config may name (the MCP servers connect later).
  static bool IsDynamicName(std::string_view name);
  // Every native tool name and the aliases GoClaw registers (bash, Read, ...): the names a
  // config may use without a warning.
  static bool IsKnownToolName(std::string_view name);
  static std::span<const std::string> KnownToolNames();

  // Creates or replaces a dynamic group. Fails with kInvalidArgument for other names.
  Status Register(std::string name, Members members);
  // Returns false when the group was not registered.
  bool Unregister(std::string_view name);

  struct Snapshot {
    uint64_t generation = 0;
    std::shared_ptr<const DynamicMap> dynamic;
    // Built-in or dynamic members; nullptr when the group does not exist (now).
    const Members* Find(std::string_view name) const;
  };
  // Generation and members read together, so a cache keyed by the generation never pairs it
  // with members from another version.
  Snapshot snapshot() const;

 private:
  mutable std::shared_mutex mu_;
  std::shared_ptr<const DynamicMap> dynamic_ = std::make_shared<DynamicMap>();
  uint64_t generation_ = 0;
};

}  // namespace clawtools
