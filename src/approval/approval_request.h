// One exec approval request as stored in `exec_approvals` and shown to the humans deciding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"

namespace clawtools {

enum class ApprovalStatus { kPending, kAllowed, kDenied, kExpired };
enum class ApprovalDecision { kAllowOnce, kAllowAlways, kDeny };

const char* ApprovalStatusName(ApprovalStatus s);  // "pending" | "allowed" | ...
std::optional<ApprovalStatus> ParseApprovalStatus(std::string_view s);
const char* ApprovalDecisionName(ApprovalDecision d);  // "allow-once" | "allow-always" | "deny"
std::optional<ApprovalDecision> ParseApprovalDecision(std::string_view s);

struct ApprovalRequest {
  std::string id;  // "apr_" + 32 random hex digits: unguessable, unique across processes
  std::string agent_id;
  std::string user_id;
  std::string session_key;
  std::string command;                         // as the model wrote it
  std::string canonical;                       // the analysed commands, shell-quoted, one per line
  std::string cwd;                             // normalised absolute directory the command runs in
  std::vector<std::vector<std::string>> argv;  // every command that would run
  std::string rule;    // why approval was needed ("ask:on-miss", an analyser rule, ...)
  std::string reason;  // one sentence for the human
  ApprovalStatus status = ApprovalStatus::kPending;
  std::optional<ApprovalDecision> decision;
  std::string decided_by;  // "http", "cli:<user>", "tty", "timeout"
  int64_t created_at = 0;  // Unix ms
  int64_t expires_at = 0;
  int64_t decided_at = 0;  // 0 while pending

  Json ToJson() const;
};

}  // namespace clawtools
