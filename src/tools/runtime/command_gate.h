// The gate every shell command passes before it runs (exec, process, custom tools):
// command analysis (deny rules), then the approval workflow. Implemented in src/approval;
// the runtime tools only call Check.
#pragma once

#include <string>
#include <string_view>

#include "core/call_context.h"

namespace clawtools {

struct GateVerdict {
  bool allowed = false;
  std::string rule;    // what decided: a deny rule, "approval:allow-once", "allowlist:<id>", ...
  std::string reason;  // for the model when refused
};

class CommandGate {
 public:
  virtual ~CommandGate() = default;
  // May block while a human decides (bounded by the approval timeout and ctx's deadline and
  // cancellation). Thread-safe.
  virtual GateVerdict Check(const CallContext& ctx, std::string_view command,
                            std::string_view cwd) const = 0;
};

}  // namespace clawtools
