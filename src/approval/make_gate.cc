// Kept apart from approval_gate.cc so that the gate itself can be tested with hand-made
// analyses, without the command analyser.
#include "approval/approval_gate.h"

namespace clawtools {

std::shared_ptr<CommandGate> MakeApprovalGate(std::shared_ptr<ApprovalManager> manager,
                                              execpolicy::AnalysisOptions options,
                                              std::shared_ptr<Approver> approver) {
  return std::make_shared<ApprovalGate>(
      std::move(manager),
      [options = std::move(options)](std::string_view command) {
        return execpolicy::AnalyzeCommand(command, options);
      },
      std::move(approver));
}

}  // namespace clawtools
