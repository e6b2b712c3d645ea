#include "tools/runtime/exec_tool.h"

#include <algorithm>
#include <cstdio>

#include "tools/runtime/output_report.h"

namespace clawtools {
namespace {

Json Schema() {
  return Json::parse(R"J({"type":"object","properties":{
    "command":{"type":"string","description":"The shell command to execute"},
    "working_dir":{"type":"string","description":"Working directory for the command, relative to the workspace (default: workspace root)"},
    "timeout":{"type":"integer","minimum":1,"description":"Timeout in seconds (capped by the configured limit: 60 s on the host, 300 s in the sandbox by default)"}},
    "required":["command"]})J");
}

std::string Seconds(std::chrono::milliseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f s", static_cast<double>(d.count()) / 1000.0);
  return buf;
}

}  // namespace

ExecTool::ExecTool(std::shared_ptr<const CommandLauncher> launcher)
    : SimpleTool(
          "exec",
          "Execute a shell command and return its output (stdout and stderr merged) and exit code. "
          "Long output is cut to a head and a tail; the full output is saved to a file in the "
          "workspace.",
          Schema()),
      launcher_(std::move(launcher)) {}

Result ExecTool::Execute(const CallContext& ctx, const Json& args) const {
  auto launched = launcher_->Launch(ctx, args.value("command", ""), args.value("working_dir", ""));
  if (!launched) return Result::FromError(launched.error());

  auto timeout = launched->timeout;
  if (args.contains("timeout"))
    timeout = std::min(timeout, std::chrono::seconds(args["timeout"].get<int64_t>()));
  auto deadline = std::min(ctx.deadline(), std::chrono::steady_clock::now() + timeout);
  sandbox::RunOutcome out =
      sandbox::RunToCompletion(launched->process, {.deadline = deadline, .stop = ctx.stop_token()});
  if ((out.timed_out || out.cancelled) && launched->after_kill) launched->after_kill();

  const bool on_host = launched->where.starts_with("host");
  std::string text =
      on_host ? "[ran on " + launched->where + "] " : "[ran in " + launched->where + "] ";
  Result r;
  if (out.timed_out) {
    text += "timed out after " + Seconds(out.duration) + "; the process group was killed";
    r.error_code = ErrorCode::kDeadlineExceeded;
  } else if (out.cancelled) {
    text += "cancelled after " + Seconds(out.duration) + "; the process group was killed";
    r.error_code = ErrorCode::kCancelled;
  } else {
    text += "exit code " + std::to_string(out.status.ShellCode()) + " in " + Seconds(out.duration);
    if (out.status.signal) text += " (killed by signal " + std::to_string(out.status.signal) + ")";
  }
  text += "\n" + ReportOutput(out, launcher_->settings().max_output_chars, ctx.workspace());
  r.for_llm = std::move(text);
  r.is_error = out.timed_out || out.cancelled || out.status.ShellCode() != 0;
  return r;
}

}  // namespace clawtools
