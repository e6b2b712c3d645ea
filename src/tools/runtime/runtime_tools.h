// Builds the runtime group's tools (exec, process) from the config. The runtime registers the
// two tools, keeps `processes` to call CleanupSession(session_key) when a session ends, and
// drops it at shutdown (its destructor kills every background process).
#pragma once

#include <memory>

#include "core/json.h"
#include "core/tool.h"
#include "sandbox/sandbox.h"
#include "tools/runtime/command_gate.h"
#include "tools/runtime/command_launcher.h"
#include "tools/runtime/process_registry.h"

namespace clawtools {

struct RuntimeTools {
  std::shared_ptr<const Tool> exec;
  std::shared_ptr<const Tool> process;
  std::shared_ptr<ProcessRegistry> processes;
  // Shared with other shell-running tools (custom tools): same gate, sandbox and settings.
  std::shared_ptr<const CommandLauncher> launcher;
};

// `sandbox` may be null (then sandbox modes fall back to the host or, for `required`, refuse).
// The agent's policy is read from agents.defaults.sandbox / agents.list[].sandbox per call.
RuntimeTools MakeRuntimeTools(const Json& config_root, std::shared_ptr<const CommandGate> gate,
                              std::shared_ptr<const sandbox::Sandbox> sandbox);

}  // namespace clawtools
