// The persistence of exec approvals: requests in `exec_approvals`, allowlist rules in
// `exec_allowlist_rules` (migration 002). Every process on the same database sees the same
// state, so a request created by a gateway can be decided by the CLI or by another gateway;
// the conditional UPDATE in Decide makes exactly one decision win.
//
// Thread-safe; holds a reference to the store, which must outlive it.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "approval/approval_request.h"
#include "approval/prefix_rule.h"
#include "core/error.h"
#include "store/store.h"

namespace clawtools {

class ApprovalStore {
 public:
  explicit ApprovalStore(store::Store& store) : store_(store) {}

  Status Insert(const ApprovalRequest& request) const;
  // Overdue pending requests read as expired (and are marked so).
  Expected<std::optional<ApprovalRequest>> Get(std::string_view id) const;
  // Newest first; nullopt status: all.
  Expected<std::vector<ApprovalRequest>> List(std::optional<ApprovalStatus> status) const;

  // Records a decision and, for allow-always, adds one rule per command bound to the
  // request's agent and cwd, in the same transaction. Errors: kNotFound (no such request),
  // kAlreadyExists (already decided or expired), kInvalidArgument (allow-always for a command
  // that may not become a rule; the request stays pending and can still be allowed once).
  Expected<ApprovalRequest> Decide(std::string_view id, ApprovalDecision decision,
                                   std::string_view decided_by) const;
  // Marks a still-pending request expired; false when it was decided first.
  Expected<bool> Expire(std::string_view id) const;

  // Validates (ValidatePrefix) and stores `rule`; returns it with id and created_at set.
  Expected<PrefixRule> AddRule(PrefixRule rule) const;
  // Rules of `agent_id`, or every rule when nullopt; oldest first.
  Expected<std::vector<PrefixRule>> Rules(std::optional<std::string_view> agent_id) const;
  // kNotFound when absent.
  Status RemoveRule(int64_t id) const;

 private:
  Status ExpireOverdue() const;

  store::Store& store_;
};

}  // namespace clawtools
