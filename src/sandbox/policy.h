// The sandbox policy of one agent, with GoClaw's keys: agents.defaults.sandbox, overridden key
// by key by agents.list[id == agent].sandbox, plus our `backend` and the `required` mode.
//
//   mode      off       every command on the host (GoClaw's "sandbox disabled -> host")
//             non-main  sandbox, except for the agent's main session (IsMainSession)
//             all       sandbox every session
//             required  sandbox every session; never the host, even when no backend works
//   For non-main and all, a sandbox that cannot start falls back to the host and the result
//   says so; `required` refuses instead.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "core/json.h"

namespace clawtools::sandbox {

enum class Mode { kOff, kNonMain, kAll, kRequired };
enum class BackendKind { kNative, kDocker };
enum class WorkspaceAccess { kNone, kReadOnly, kReadWrite };

struct Policy {
  Mode mode = Mode::kOff;
  BackendKind backend = BackendKind::kNative;
  WorkspaceAccess workspace_access = WorkspaceAccess::kReadWrite;
  bool network_enabled = false;
  int memory_mb = 512;   // RLIMIT_AS (native), --memory (docker)
  double cpus = 1.0;     // docker only: the native backend has no cgroup v2 cpu controller here
  int pids_limit = 256;  // RLIMIT_NPROC inside the sandbox's user namespace, --pids-limit
  int timeout_sec = 300;
  std::string image = "debian:bookworm-slim";
  std::string scope = "session";
  std::map<std::string, std::string> env;
};

// Reads the policy for `agent_id` from the config root (the document Config::root() returns).
// The document was validated against the schema, so types are trusted.
Policy PolicyFor(const Json& config_root, std::string_view agent_id);

// The agent's main session: an empty key, "main", or a key ending in ":main"
// (GoClaw's session keys look like "agent:<id>:main" for the main chat).
bool IsMainSession(std::string_view session_key);

enum class Placement { kHost, kSandbox };
// Where a command of `session_key` runs under `mode` (before backend availability).
Placement Route(Mode mode, std::string_view session_key);

const char* ModeName(Mode m);
const char* AccessName(WorkspaceAccess a);

}  // namespace clawtools::sandbox
