// exec: runs a shell command to completion and returns its output and exit code (GoClaw's
// schema: command, working_dir; plus timeout in seconds, capped by the placement's limit).
//
// The result's first line says where the command ran ("[ran on host]", "[ran in sandbox:
// native (...)]"), the exit code and the duration; then the merged stdout+stderr, bounded by
// output_report.h. Non-zero exit, timeout and cancellation are error results that still carry
// the output. Timeout and cancellation kill the whole process group. Thread-safe.
#pragma once

#include <memory>

#include "core/tool.h"
#include "tools/runtime/command_launcher.h"

namespace clawtools {

class ExecTool : public SimpleTool {
 public:
  explicit ExecTool(std::shared_ptr<const CommandLauncher> launcher);
  Result Execute(const CallContext& ctx, const Json& args) const override;

 private:
  std::shared_ptr<const CommandLauncher> launcher_;
};

}  // namespace clawtools
