#include "cli/runtime_flags.h"

#include "approval/terminal_approver.h"

namespace clawtools::cli {

Expected<std::unique_ptr<Runtime>> MakeRuntime(const CommonFlags& flags, LogLevel default_level) {
  RuntimeOptions opts;
  opts.config_path = flags.config;
  opts.workspace = flags.workspace;
  opts.db_url = flags.db;
  opts.log_level = default_level;
  // One-shot commands on a terminal ask the person at it when a command needs approval.
  if (flags.interactive_approvals && HasTerminal()) opts.approver = std::make_shared<TerminalApprover>();
  if (!flags.log_level.empty()) {
    auto level = ParseLogLevel(flags.log_level);
    if (!level) return Fail(ErrorCode::kInvalidArgument, "unknown log level " + flags.log_level);
    opts.log_level = *level;
  }
  return Runtime::Create(opts);
}

}  // namespace clawtools::cli
