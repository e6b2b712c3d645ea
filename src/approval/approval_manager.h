// The exec approval workflow (GoClaw's exec approval manager, persisted and bound to argv).
//
// Check() turns a command analysis into allow, deny or ask:
//   * the analysis denies                    -> deny (no approval can override a deny rule)
//   * security=deny                          -> deny
//   * the analysis asks (unparsable, dynamic) -> ask, or deny when ask=off; an allow-always
//                                               grant for exactly these commands in this cwd
//                                               allows
//   * security=full, ask=off                 -> allow
//   * ask=always                             -> ask unless an allow-always grant for exactly
//                                               these commands in this cwd exists
//   * otherwise every command must match an allowlist rule (config + this agent's persisted
//     rules; commands with run-time values never match) -> allow; else ask (on-miss) or
//     deny (security=allowlist, ask=off)
//
// Request() persists a pending request (visible to every process on the database) and
// publishes "approval.requested"; Wait() blocks until it is decided, expires (the configured
// timeout, 2 minutes by default; expiry means denied) or the caller gives up, then publishes
// "approval.decided". Decisions made in this process wake the waiter at once; decisions made
// by another process (the CLI, another gateway) are seen by polling the row.
//
// Thread-safe. The store must outlive the manager.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "approval/approval_request.h"
#include "approval/approval_settings.h"
#include "approval/approval_store.h"
#include "approval/event_bus.h"
#include "core/error.h"
#include "execpolicy/command_analysis.h"
#include "store/store.h"

namespace clawtools {

// Who runs what, where.
struct ApprovalSubject {
  std::string agent_id;
  std::string user_id;
  std::string session_key;
  std::string command;  // as written
  std::string cwd;
};

enum class CheckVerdict { kAllow, kDeny, kAsk };

struct CheckResult {
  CheckVerdict verdict = CheckVerdict::kDeny;
  std::string rule;    // "allowlist:<id>", "allowlist:config:<pattern>", "approval:ask=always", an
                       // analyser rule, ...
  std::string reason;  // for the model (deny) or the human (ask)
};

// Applied to what leaves the process for humans (events, HTTP): commands can carry
// credentials, and UIs and chat channels must not show them (the scrubber).
using Redactor = std::function<std::string(std::string_view)>;

class ApprovalManager {
 public:
  // `events` may be null (no notifications), `redact` null (shown as stored).
  ApprovalManager(store::Store& store, ApprovalSettings settings, std::shared_ptr<EventBus> events,
                  Redactor redact = nullptr);

  // Store errors are returned; callers fail closed.
  Expected<CheckResult> Check(const ApprovalSubject& subject,
                              const execpolicy::Analysis& analysis) const;

  // Persists a pending request for `subject` (why: the ask result) expiring after the
  // configured timeout, and publishes approval.requested.
  Expected<ApprovalRequest> Request(const ApprovalSubject& subject,
                                    const execpolicy::Analysis& analysis, const CheckResult& why);

  // Blocks until request `id` is decided or expired, `deadline` passes or `stop` is requested;
  // in the last two cases the request is marked expired (nobody would act on a later
  // decision). Returns the final request and publishes approval.decided.
  Expected<ApprovalRequest> Wait(std::string_view id,
                                 std::chrono::steady_clock::time_point deadline,
                                 std::stop_token stop = {});

  // A human's decision (ApprovalStore::Decide for the errors); wakes this process's waiter.
  Expected<ApprovalRequest> Decide(std::string_view id, ApprovalDecision decision,
                                   std::string_view decided_by);

  // ApprovalRequest::ToJson with command, canonical, argv and reason redacted.
  Json ToJson(const ApprovalRequest& request) const;
  // PrefixRule::ToJson with the prefix redacted.
  Json ToJson(const PrefixRule& rule) const;

  const ApprovalStore& store() const { return store_; }
  const ApprovalSettings& settings() const { return settings_; }
  // Null when constructed without one.
  const std::shared_ptr<EventBus>& events() const { return events_; }

 private:
  Expected<CheckResult> MatchRules(const ApprovalSubject& subject,
                                   const execpolicy::Analysis& analysis,
                                   bool exact_grants_only) const;
  void Publish(std::string_view type, const ApprovalRequest& request) const;

  ApprovalStore store_;
  const ApprovalSettings settings_;
  const std::shared_ptr<EventBus> events_;
  const Redactor redact_;

  std::mutex mu_;
  std::condition_variable_any decided_;
  uint64_t decisions_ = 0;  // bumped by every local decision, guarded by mu_
};

// The directory a command runs in, as approvals are bound to it: absolute, symlinks resolved
// where it exists, no trailing slash.
std::string NormalizeCwd(std::string_view cwd);

// The commands of an analysis, one shell-quoted line each, joined with "; ".
std::string CanonicalCommand(const execpolicy::Analysis& analysis);

// The manager the runtime owns: settings from config (tools.execApproval).
Expected<std::shared_ptr<ApprovalManager>> MakeApprovalManager(const Config& config,
                                                               store::Store& store,
                                                               std::shared_ptr<EventBus> events,
                                                               Redactor redact = nullptr);

}  // namespace clawtools
