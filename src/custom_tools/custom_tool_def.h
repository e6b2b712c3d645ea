// A custom tool's definition: the seed's JSON form (section 8) plus scope.
//
//   {"name": "dns_lookup", "description": "...", "parameters": {JSON Schema, type object},
//    "command": "dig +short {{.record_type}} {{.domain}}", "timeout_seconds": 10,
//    "working_dir": "sub/dir", "env": {"API_KEY": "..."}, "enabled": true,
//    "agent_id": "a1" | null}
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/json.h"

namespace clawtools::custom_tools {

inline constexpr int kDefaultTimeoutSeconds = 60;
inline constexpr int kMaxTimeoutSeconds = 3600;

struct CustomToolDef {
  std::string id;  // assigned by the store
  std::string name;
  std::string description;
  Json parameters = Json{{"type", "object"}, {"properties", Json::object()}};
  std::string command;
  std::string working_dir;  // relative to the calling workspace; "" = its root
  int timeout_seconds = kDefaultTimeoutSeconds;
  // Plaintext when a definition comes from a user; as stored ("aes-gcm:...") when it comes
  // from CustomToolStore, which decrypts only on request.
  std::map<std::string, std::string> env;
  std::optional<std::string> agent_id;  // nullopt: global
  bool enabled = true;
  int64_t created_at = 0;  // Unix ms
  int64_t updated_at = 0;
};

// Parses the JSON form. Unknown fields are rejected (a typo would otherwise be lost silently);
// "id", "created_at" and "updated_at" are ignored so that `show` output can be fed back.
// Types are checked here; meaning in Validate.
Expected<CustomToolDef> DefinitionFromJson(const Json& j);

// Overlays the fields present in `patch` (the PUT body) onto `base`. Env, when present,
// replaces the whole map.
Expected<CustomToolDef> ApplyPatch(CustomToolDef base, const Json& patch);

// The JSON form without secrets: env values appear as "[encrypted]".
Json DefinitionToJson(const CustomToolDef& def);

// Tool names the providers accept.
bool IsValidToolName(std::string_view name);

// Whether `name` belongs to a built-in (or MCP) tool, which a custom tool may not shadow.
using IsReservedName = std::function<bool(std::string_view name)>;

// Checks a definition before it is stored: the name (^[a-zA-Z0-9_-]{1,64}$, not reserved),
// parameters (an object schema), the command template (well-formed, every placeholder names a
// declared property), timeout (1..3600 s), env names (portable identifiers, nothing the loader
// interprets: LD_*, BASH_FUNC_*) and values (no NUL). kInvalidArgument or kAlreadyExists
// (shadowing).
Status ValidateDefinition(const CustomToolDef& def, const IsReservedName& reserved);

}  // namespace clawtools::custom_tools
