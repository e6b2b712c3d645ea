// Starts one shell command for a call, the way exec and process both need it:
//
//   1. working_dir resolved beneath the call's workspace with WorkspaceFs (symlinks and ".."
//      included; it must stay inside and be a directory);
//   2. the CommandGate (command analysis, approvals): a refusal creates no process;
//   3. routing by the agent's sandbox policy and the session key (sandbox/policy.h):
//      off -> host; non-main/all -> sandbox, or the host with the reason when no backend
//      works; required -> sandbox or an error;
//   4. spawn: host commands get `shell -c command` with a scrubbed environment (never the
//      gateway's secrets) in their own process group, under the reaper (settings.host_reaper)
//      that kills what they leave behind, also outside the group.
// Thread-safe; shared by the exec and process tools.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "core/call_context.h"
#include "core/error.h"
#include "sandbox/policy.h"
#include "sandbox/sandbox.h"
#include "tools/runtime/command_gate.h"
#include "tools/runtime/exec_settings.h"

namespace clawtools {

struct LaunchedCommand {
  sandbox::Process process;
  std::string where;  // "host", "host (sandbox unavailable: ...)", "sandbox: native (...)"
  std::chrono::seconds timeout;  // the placement's default: host 60 s, sandbox 300 s
  std::function<void()> after_kill;
};

class CommandLauncher {
 public:
  using PolicyFor = std::function<sandbox::Policy(const CallContext&)>;

  // `sandbox` may be null (no backend built): sandbox placements then fall back or refuse.
  CommandLauncher(std::shared_ptr<const CommandGate> gate,
                  std::shared_ptr<const sandbox::Sandbox> sandbox, PolicyFor policy_for,
                  ExecSettings settings);

  // `extra_env` is added on top of the command's environment (host or sandbox), overriding
  // same-named entries: a custom tool's decrypted secrets. Never logged.
  Expected<LaunchedCommand> Launch(const CallContext& ctx, std::string_view command,
                                   std::string_view working_dir,
                                   const std::map<std::string, std::string>& extra_env = {}) const;

  const ExecSettings& settings() const { return settings_; }

 private:
  std::shared_ptr<const CommandGate> gate_;
  std::shared_ptr<const sandbox::Sandbox> sandbox_;
  PolicyFor policy_for_;
  ExecSettings settings_;
};

}  // namespace clawtools
