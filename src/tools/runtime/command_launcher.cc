#include "tools/runtime/command_launcher.h"

#include "sandbox/environment.h"
#include "tools/fs/workspace_fs.h"

extern char** environ;

namespace clawtools {

CommandLauncher::CommandLauncher(std::shared_ptr<const CommandGate> gate,
                                 std::shared_ptr<const sandbox::Sandbox> sandbox,
                                 PolicyFor policy_for, ExecSettings settings)
    : gate_(std::move(gate)),
      sandbox_(std::move(sandbox)),
      policy_for_(std::move(policy_for)),
      settings_(std::move(settings)) {}

Expected<LaunchedCommand> CommandLauncher::Launch(
    const CallContext& ctx, std::string_view command, std::string_view working_dir,
    const std::map<std::string, std::string>& extra_env) const {
  if (command.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return Fail(ErrorCode::kInvalidArgument, "command is required");
  if (ctx.workspace().empty()) return Fail(ErrorCode::kUnavailable, "no workspace configured");
  auto fs = WorkspaceFs::Open(ctx.workspace(), {});
  if (!fs) return std::unexpected(fs.error());
  std::string rel;
  if (!working_dir.empty()) {
    auto rel_in = (*fs)->Relativize(working_dir);
    if (!rel_in) return std::unexpected(rel_in.error());
    auto dir = (*fs)->OpenDir(*rel_in);
    if (!dir) return std::unexpected(dir.error());
    rel = dir->rel;
  }
  const std::string cwd = rel.empty() ? (*fs)->root_path() : (*fs)->root_path() + "/" + rel;

  if (!gate_)
    return Fail(ErrorCode::kPermissionDenied, "command denied: no command gate configured");
  std::vector<std::string> provided;
  for (const auto& [name, value] : extra_env) provided.push_back(name);
  GateVerdict v = gate_->Check(ctx, command, cwd, provided);
  if (!v.allowed)
    return Fail(ErrorCode::kPermissionDenied,
                "command denied: " + (v.reason.empty() ? std::string("refused") : v.reason) +
                    (v.rule.empty() ? "" : " (rule: " + v.rule + ")"));

  sandbox::Policy policy = policy_for_ ? policy_for_(ctx) : sandbox::Policy{};
  for (const auto& [k, v] : extra_env) policy.env[k] = v;
  std::string host_note;
  if (sandbox::Route(policy.mode, ctx.session_key()) == sandbox::Placement::kSandbox) {
    if (sandbox_ && sandbox_->available(policy.backend)) {
      sandbox::LaunchRequest req{.command = std::string(command),
                                 .workspace = (*fs)->root_path(),
                                 .cwd_rel = rel,
                                 .session_key = ctx.sandbox_key(),
                                 .policy = policy};
      auto l = sandbox_->Start(req);
      if (!l) return std::unexpected(l.error());
      return LaunchedCommand{std::move(l->process), std::move(l->where),
                             std::chrono::seconds(policy.timeout_sec), std::move(l->after_kill)};
    }
    std::string why = policy.backend == sandbox::BackendKind::kDocker ? "docker" : "native";
    if (sandbox_) {
      const auto& c = sandbox_->capabilities();
      why += ": " +
             (policy.backend == sandbox::BackendKind::kDocker ? c.docker.error : c.native.error);
    } else {
      why += ": no sandbox configured";
    }
    if (policy.mode == sandbox::Mode::kRequired)
      return Fail(ErrorCode::kUnavailable, "sandbox required but unavailable (" + why +
                                               "); the command was not run on the host");
    host_note = " (sandbox unavailable: " + why + ")";
  }

  std::map<std::string, std::string> env = settings_.host_env;
  for (const auto& [k, v] : extra_env) env[k] = v;
  std::vector<std::string> argv = {settings_.shell, "-c", std::string(command)};
  if (!settings_.host_reaper.empty())
    argv.insert(argv.begin(), {settings_.host_reaper, "--reap", "--"});
  auto proc = sandbox::Process::Spawn(
      {.argv = std::move(argv), .env = sandbox::HostEnvironment(environ, env), .cwd = cwd});
  if (!proc) return std::unexpected(proc.error());
  return LaunchedCommand{std::move(*proc), "host" + host_note, settings_.host_timeout, nullptr};
}

}  // namespace clawtools
