#include "approval/approval_gate.h"

#include <thread>

namespace clawtools {
namespace {

GateVerdict Refuse(std::string rule, std::string reason) {
  return GateVerdict{false, std::move(rule), std::move(reason)};
}

GateVerdict FromDecided(const ApprovalRequest& a) {
  switch (a.status) {
    case ApprovalStatus::kAllowed:
      return GateVerdict{true,
                         a.decision == ApprovalDecision::kAllowAlways ? "approval:allow-always"
                                                                      : "approval:allow-once",
                         ""};
    case ApprovalStatus::kDenied:
      // Said explicitly, so the model does not go looking for output that never existed.
      return Refuse("approval:deny",
                    "a human denied this command (approval " + a.id + "); it did not run");
    case ApprovalStatus::kExpired:
    case ApprovalStatus::kPending:
      break;
  }
  return Refuse("approval:expired",
                "no decision on approval " + a.id + " (" + a.reason + "); the command did not run");
}

}  // namespace

ApprovalGate::ApprovalGate(std::shared_ptr<ApprovalManager> manager, CommandAnalyzer analyze,
                           std::shared_ptr<Approver> approver)
    : manager_(std::move(manager)), analyze_(std::move(analyze)), approver_(std::move(approver)) {}

GateVerdict ApprovalGate::DoCheck(const CallContext& ctx, const CommandCheck& check) const {
  const std::string_view command = check.command, cwd = check.cwd;
  execpolicy::Analysis analysis = analyze_(command, ctx.agent_id(), check.provided_env);
  ApprovalSubject subject{ctx.agent_id(), ctx.user_id(), ctx.session_key(), std::string(command),
                          std::string(cwd)};
  auto checked = manager_->Check(subject, analysis);
  if (!checked)
    return Refuse("approval:error", "approval unavailable: " + checked.error().for_model);
  switch (checked->verdict) {
    case CheckVerdict::kAllow:
      return GateVerdict{true, checked->rule, ""};
    case CheckVerdict::kDeny:
      return Refuse(checked->rule, checked->reason);
    case CheckVerdict::kAsk:
      break;
  }
  if (ctx.cancelled() || ctx.expired()) {
    return Refuse("approval:expired", "the call ended before approval could be asked");
  }
  auto request = manager_->Request(subject, analysis, *checked);
  if (!request)
    return Refuse("approval:error", "approval unavailable: " + request.error().for_model);

  std::jthread prompter;
  if (approver_) {
    prompter = std::jthread([this, &request](std::stop_token stop) {
      auto answer = approver_->Prompt(*request, stop);
      if (!answer) return;
      auto decided = manager_->Decide(request->id, *answer, "tty");
      // The terminal offered "always" for a command that may not become a rule (a bare
      // interpreter): the human still approved this run.
      if (!decided && decided.error().code == ErrorCode::kInvalidArgument) {
        (void)manager_->Decide(request->id, ApprovalDecision::kAllowOnce, "tty");
      }
    });
  }
  auto final = manager_->Wait(request->id, ctx.deadline(), ctx.stop_token());
  prompter.request_stop();
  if (!final) return Refuse("approval:error", "approval unavailable: " + final.error().for_model);
  return FromDecided(*final);
}

}  // namespace clawtools
