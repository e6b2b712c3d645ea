// Kept apart from approval_gate.cc so that the gate itself can be tested with hand-made
// analyses, without the command analyser.
#include "approval/approval_gate.h"

namespace clawtools {

std::shared_ptr<CommandGate> MakeApprovalGate(std::shared_ptr<ApprovalManager> manager,
                                              AnalysisOptionsFor options_for,
                                              std::shared_ptr<Approver> approver) {
  return std::make_shared<ApprovalGate>(
      std::move(manager),
      [options_for = std::move(options_for)](std::string_view command, std::string_view agent,
                                             std::span<const std::string> provided_env) {
        execpolicy::AnalysisOptions options =
            options_for ? options_for(agent) : execpolicy::AnalysisOptions{};
        options.provided_variables.assign(provided_env.begin(), provided_env.end());
        return execpolicy::AnalyzeCommand(command, options);
      },
      std::move(approver));
}

}  // namespace clawtools
