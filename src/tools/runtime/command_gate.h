// The gate every shell command passes before it runs (exec, process, custom tools):
// command analysis (deny rules), then the approval workflow. Implemented in src/approval;
// the runtime tools only call Check.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/call_context.h"

namespace clawtools {

struct GateVerdict {
  bool allowed = false;
  std::string rule;    // what decided: a deny rule, "approval:allow-once", "allowlist:<id>", ...
  std::string reason;  // for the model when refused
};

// One command to check. `provided_env`: the names of the variables the runner adds to the
// command's environment (a custom tool's own env). Reading those is not a secret dump: the
// values are the tool's own and are scrubbed from its output.
struct CommandCheck {
  std::string_view command;
  std::string_view cwd;
  std::span<const std::string> provided_env;
};

class CommandGate {
 public:
  virtual ~CommandGate() = default;
  // May block while a human decides (bounded by the approval timeout and ctx's deadline and
  // cancellation). Thread-safe.
  GateVerdict Check(const CallContext& ctx, std::string_view command, std::string_view cwd,
                    std::span<const std::string> provided_env = {}) const {
    return DoCheck(ctx, CommandCheck{command, cwd, provided_env});
  }

 protected:
  virtual GateVerdict DoCheck(const CallContext& ctx, const CommandCheck& check) const = 0;
};

}  // namespace clawtools
