#include "custom_tools/custom_tool.h"

#include <algorithm>

#include "tools/runtime/output_report.h"

namespace clawtools::custom_tools {

Expected<std::shared_ptr<const CustomTool>> CustomTool::Create(
    const CustomToolDef& def, std::map<std::string, std::string> env,
    std::shared_ptr<const CommandLauncher> launcher) {
  auto tmpl = CommandTemplate::Parse(def.command);
  if (!tmpl) return std::unexpected(tmpl.error());
  return std::shared_ptr<const CustomTool>(
      new CustomTool(def, std::move(*tmpl), std::move(env), std::move(launcher)));
}

CustomTool::CustomTool(const CustomToolDef& def, CommandTemplate tmpl,
                       std::map<std::string, std::string> env,
                       std::shared_ptr<const CommandLauncher> launcher)
    : SimpleTool(def.name, def.description, def.parameters),
      id_(def.id),
      template_(std::move(tmpl)),
      working_dir_(def.working_dir),
      timeout_(def.timeout_seconds),
      env_(std::move(env)),
      launcher_(std::move(launcher)) {}

Result CustomTool::Execute(const CallContext& ctx, const Json& args) const {
  auto command = template_.Render(args);
  if (!command) return Result::FromError(command.error());
  if (!launcher_) return Result::Fail("custom tools cannot run: no command launcher", ErrorCode::kUnavailable);
  auto launched = launcher_->Launch(ctx, *command, working_dir_, env_);
  if (!launched) return Result::FromError(launched.error());

  auto deadline = std::min(ctx.deadline(), std::chrono::steady_clock::now() + timeout_);
  sandbox::RunOutcome out =
      sandbox::RunToCompletion(launched->process, {.deadline = deadline, .stop = ctx.stop_token()});
  if ((out.timed_out || out.cancelled) && launched->after_kill) launched->after_kill();

  std::string report =
      ReportOutput(out, launcher_->settings().max_output_chars, ctx.workspace());
  Result r;
  if (out.timed_out) {
    r.for_llm = "timed out after " + std::to_string(timeout_.count()) +
                " s; the process group was killed\n" + report;
    r.error_code = ErrorCode::kDeadlineExceeded;
  } else if (out.cancelled) {
    r.for_llm = "cancelled; the process group was killed\n" + report;
    r.error_code = ErrorCode::kCancelled;
  } else if (out.status.ShellCode() != 0) {
    r.for_llm = "exit code " + std::to_string(out.status.ShellCode()) + "\n" + report;
  } else {
    r.for_llm = report;
  }
  r.is_error = out.timed_out || out.cancelled || out.status.ShellCode() != 0;
  r.silent = !r.is_error;
  return r;
}

}  // namespace clawtools::custom_tools
