// The CommandGate of exec and the other shell-running tools: command analysis, then the
// approval workflow, waiting (bounded by the call's deadline and cancellation) when a human
// has to decide. Fails closed: a store error refuses the command.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string_view>

#include "approval/approval_manager.h"
#include "approval/approver.h"
#include "execpolicy/command_analysis.h"
#include "tools/runtime/command_gate.h"

namespace clawtools {

// The agent matters: deny groups can be switched per agent (tools.exec in agents.list[]).
// `provided_env`: CommandCheck::provided_env.
using CommandAnalyzer =
    std::function<execpolicy::Analysis(std::string_view command, std::string_view agent_id,
                                       std::span<const std::string> provided_env)>;
using AnalysisOptionsFor = std::function<execpolicy::AnalysisOptions(std::string_view agent_id)>;

class ApprovalGate final : public CommandGate {
 public:
  // `approver` may be null: then only the store-backed workflow decides.
  ApprovalGate(std::shared_ptr<ApprovalManager> manager, CommandAnalyzer analyze,
               std::shared_ptr<Approver> approver = nullptr);

  // GateVerdict::rule: the analyser or allowlist rule, "approval:allow-once",
  // "approval:allow-always", "approval:deny", "approval:expired", "approval:error".
 protected:
  GateVerdict DoCheck(const CallContext& ctx, const CommandCheck& check) const override;

 private:
  std::shared_ptr<ApprovalManager> manager_;
  CommandAnalyzer analyze_;
  std::shared_ptr<Approver> approver_;
};

// The production gate: execpolicy::AnalyzeCommand with the calling agent's options
// (`options_for` null: the defaults for every agent).
std::shared_ptr<CommandGate> MakeApprovalGate(std::shared_ptr<ApprovalManager> manager,
                                              AnalysisOptionsFor options_for = nullptr,
                                              std::shared_ptr<Approver> approver = nullptr);

}  // namespace clawtools
