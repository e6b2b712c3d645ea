// A human asked directly, beside the store-backed workflow: the CLI plugs in a terminal
// prompt (TerminalApprover); a chat channel could plug in buttons.
#pragma once

#include <optional>
#include <stop_token>

#include "approval/approval_request.h"

namespace clawtools {

class Approver {
 public:
  virtual ~Approver() = default;
  // Asks about `request`. Runs on a thread of its own while the gate also waits for
  // decisions made elsewhere (gateway, CLI); must return soon after `stop` is requested, which
  // happens when the request was decided elsewhere or expired. nullopt: no answer.
  virtual std::optional<ApprovalDecision> Prompt(const ApprovalRequest& request,
                                                 std::stop_token stop) = 0;
};

}  // namespace clawtools
