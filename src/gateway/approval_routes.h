// HTTP routes of the exec approval workflow (all behind the gateway token):
//   GET    /v1/approvals[?status=pending|allowed|denied|expired|all]  newest first (default all)
//   GET    /v1/approvals/rules          the persisted allowlist rules
//   DELETE /v1/approvals/rules/{id}     200 {"removed": id}; 404 unknown; 400 malformed id
//   GET    /v1/approvals/{id}           one request; 404 unknown
//   POST   /v1/approvals/{id}           body {"decision": "allow-once"|"allow-always"|"deny",
//                                       "by": optional name recorded as decided_by "http:<by>"}
//                                       200 with the decided request; 400 bad body or
//                                       allow-always refused for the command (stays pending);
//                                       404 unknown; 409 already decided or expired
// Requests and rules are ApprovalManager::ToJson (credentials redacted). Handlers touch the
// store, so they run on the worker pool.
#pragma once

#include "approval/approval_manager.h"
#include "gateway/router.h"

namespace clawtools {

// `manager` must outlive the router.
void AddApprovalRoutes(Router& router, ApprovalManager& manager);

}  // namespace clawtools
