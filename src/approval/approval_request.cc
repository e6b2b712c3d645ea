#include "approval/approval_request.h"

namespace clawtools {

const char* ApprovalStatusName(ApprovalStatus s) {
  switch (s) {
    case ApprovalStatus::kPending:
      return "pending";
    case ApprovalStatus::kAllowed:
      return "allowed";
    case ApprovalStatus::kDenied:
      return "denied";
    case ApprovalStatus::kExpired:
      return "expired";
  }
  return "pending";
}

std::optional<ApprovalStatus> ParseApprovalStatus(std::string_view s) {
  for (auto v : {ApprovalStatus::kPending, ApprovalStatus::kAllowed, ApprovalStatus::kDenied,
                 ApprovalStatus::kExpired}) {
    if (s == ApprovalStatusName(v)) return v;
  }
  return std::nullopt;
}

const char* ApprovalDecisionName(ApprovalDecision d) {
  switch (d) {
    case ApprovalDecision::kAllowOnce:
      return "allow-once";
    case ApprovalDecision::kAllowAlways:
      return "allow-always";
    case ApprovalDecision::kDeny:
      return "deny";
  }
  return "deny";
}

std::optional<ApprovalDecision> ParseApprovalDecision(std::string_view s) {
  for (auto v :
       {ApprovalDecision::kAllowOnce, ApprovalDecision::kAllowAlways, ApprovalDecision::kDeny}) {
    if (s == ApprovalDecisionName(v)) return v;
  }
  return std::nullopt;
}

Json ApprovalRequest::ToJson() const {
  return Json{{"id", id},
              {"agent_id", agent_id},
              {"user_id", user_id},
              {"session_key", session_key},
              {"command", command},
              {"canonical", canonical},
              {"cwd", cwd},
              {"argv", argv},
              {"rule", rule},
              {"reason", reason},
              {"status", ApprovalStatusName(status)},
              {"decision", decision ? Json(ApprovalDecisionName(*decision)) : Json(nullptr)},
              {"decided_by", decided_by},
              {"created_at", created_at},
              {"expires_at", expires_at},
              {"decided_at", decided_at ? Json(decided_at) : Json(nullptr)}};
}

}  // namespace clawtools
