// The interactive prompt of `clawtools call` on a terminal: shows the command, the working
// directory and why approval is needed on /dev/tty and reads o(nce) / a(lways) / d(eny).
// Talks to /dev/tty, not stdin/stdout, which carry the call's JSON.
#pragma once

#include "approval/approver.h"

namespace clawtools {

class TerminalApprover final : public Approver {
 public:
  // nullopt at once when there is no controlling terminal or it reaches end of input.
  std::optional<ApprovalDecision> Prompt(const ApprovalRequest& request,
                                         std::stop_token stop) override;
};

// Whether the process has a controlling terminal to prompt on.
bool HasTerminal();

// "o", "once", "a", "always", "d", "deny" (any case, surrounding blanks ignored), and "y"/"n"
// for once/deny; nullopt for anything else.
std::optional<ApprovalDecision> ParseTerminalAnswer(std::string_view line);

}  // namespace clawtools
