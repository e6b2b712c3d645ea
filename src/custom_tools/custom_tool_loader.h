// Puts stored custom tools into registries (the seed's lifecycle, section 8):
//
//   Reload()             reads every enabled tool; global ones go into the global registry
//                        (replacing the previous set), per-agent ones are kept for resolution;
//                        every per-agent resolution is dropped. Run at start and on each
//                        `cache:custom_tools` event (Subscribe).
//   ResolveForAgent(id)  the global registry itself when the agent has no tools of its own,
//                        else a clone of it with the agent's tools added (overriding same-named
//                        global custom tools), cached until the next reload or until the global
//                        registry changes (e.g. an MCP server added tools).
//
// A custom tool never shadows a built-in or MCP tool: such a definition is skipped with a
// warning (ValidateDefinition refuses it up front; this covers tools registered later).
// Decrypted env values are registered with the scrubber as exact secrets at load, so output
// echoing them reaches the model redacted. Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/registry.h"
#include "custom_tools/custom_tool.h"
#include "custom_tools/custom_tool_store.h"
#include "custom_tools/event_notifier.h"
#include "scrub/scrubber.h"

namespace clawtools::custom_tools {

class CustomToolLoader {
 public:
  // `global` must outlive the loader; `scrubber` may be null (no redaction of env values).
  CustomToolLoader(std::shared_ptr<const CustomToolStore> store, Registry& global,
                   std::shared_ptr<const CommandLauncher> launcher,
                   std::shared_ptr<Scrubber> scrubber);

  // Returns warnings (skipped tools and why). Fails only when the store cannot be read; the
  // previous set then stays in place.
  Expected<std::vector<std::string>> Reload();

  std::shared_ptr<const Registry> ResolveForAgent(std::string_view agent_id);

  // True when `name` is a tool of the global registry that is not a global custom tool: what
  // a definition may not shadow (IsReservedName for ValidateDefinition).
  bool IsBuiltin(std::string_view name) const;

  // Reloads on every event of `notifier`, which must be destroyed before this loader.
  void Subscribe(EventNotifier& notifier);

  // Warnings of the last Reload (also when it ran on a notifier's thread).
  std::vector<std::string> last_warnings() const;

 private:
  using ToolPtr = std::shared_ptr<const CustomTool>;
  struct Resolution {
    uint64_t global_generation = 0;
    std::shared_ptr<const Registry> registry;
  };

  std::shared_ptr<const CustomToolStore> store_;
  Registry& global_;
  std::shared_ptr<const CommandLauncher> launcher_;
  std::shared_ptr<Scrubber> scrubber_;

  std::mutex reload_mu_;  // one Reload at a time
  mutable std::mutex mu_;  // guards everything below
  std::set<std::string, std::less<>> global_names_;  // registered by us in global_
  std::map<std::string, std::vector<ToolPtr>, std::less<>> agent_tools_;
  std::map<std::string, Resolution, std::less<>> resolutions_;
  std::vector<std::string> warnings_;
};

}  // namespace clawtools::custom_tools
