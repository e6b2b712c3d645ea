#include "approval/approval_manager.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>

#include "store/clock.h"

namespace clawtools {
namespace {

using Clock = std::chrono::steady_clock;

std::string NewRequestId() {
  std::random_device rd;
  std::string id = "apr_";
  char hex[9];
  for (int i = 0; i < 4; ++i) {
    std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(rd()));
    id += hex;
  }
  return id;
}

std::string DurationText(std::chrono::milliseconds d) {
  auto s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
  if (s >= 60) return std::to_string(s / 60) + "m" + std::to_string(s % 60) + "s";
  if (s >= 1) return std::to_string(s) + "s";
  return std::to_string(d.count()) + "ms";
}

CheckResult Allow(std::string rule) {
  return CheckResult{CheckVerdict::kAllow, std::move(rule), ""};
}
CheckResult Deny(std::string rule, std::string reason) {
  return CheckResult{CheckVerdict::kDeny, std::move(rule), std::move(reason)};
}
CheckResult Ask(std::string rule, std::string reason) {
  return CheckResult{CheckVerdict::kAsk, std::move(rule), std::move(reason)};
}

// A grant from allow-always for exactly this command line in exactly this directory: what
// ask=always and analyser "ask" results honour (prefix rules from config do not).
bool IsExactGrant(const PrefixRule& rule, const std::vector<std::string>& argv,
                  std::string_view cwd) {
  return rule.source.starts_with("approval:") && rule.cwd && *rule.cwd == cwd &&
         rule.argv_prefix == argv;
}

std::string RuleName(const PrefixRule& rule) {
  return rule.id != 0 ? "allowlist:" + std::to_string(rule.id)
                      : "allowlist:config:" + JoinArgv(rule.argv_prefix);
}

}  // namespace

std::string NormalizeCwd(std::string_view cwd) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(std::filesystem::path(cwd), ec);
  if (ec) p = std::filesystem::path(cwd);
  auto resolved = std::filesystem::weakly_canonical(p, ec);
  std::string out = (ec ? p.lexically_normal() : resolved).string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string CanonicalCommand(const execpolicy::Analysis& analysis) {
  std::string out;
  for (const auto& cmd : analysis.commands) {
    if (!out.empty()) out += "; ";
    out += JoinArgv(cmd.argv);
  }
  return out;
}

ApprovalManager::ApprovalManager(store::Store& store, ApprovalSettings settings,
                                 std::shared_ptr<EventBus> events, Redactor redact)
    : store_(store),
      settings_(std::move(settings)),
      events_(std::move(events)),
      redact_(std::move(redact)) {}

Json ApprovalManager::ToJson(const ApprovalRequest& request) const {
  if (!redact_) return request.ToJson();
  ApprovalRequest shown = request;
  shown.command = redact_(shown.command);
  shown.canonical = redact_(shown.canonical);
  shown.reason = redact_(shown.reason);
  for (auto& argv : shown.argv) {
    for (auto& word : argv) word = redact_(word);
  }
  return shown.ToJson();
}

Json ApprovalManager::ToJson(const PrefixRule& rule) const {
  if (!redact_) return rule.ToJson();
  PrefixRule shown = rule;
  for (auto& word : shown.argv_prefix) word = redact_(word);
  return shown.ToJson();
}

Expected<CheckResult> ApprovalManager::MatchRules(const ApprovalSubject& subject,
                                                  const execpolicy::Analysis& analysis,
                                                  bool exact_grants_only) const {
  if (analysis.commands.empty())
    return Ask("approval:no-commands", "no command could be identified");
  auto persisted = store_.Rules(subject.agent_id);
  if (!persisted) return std::unexpected(persisted.error());
  std::string cwd = NormalizeCwd(subject.cwd);
  std::string first_rule;
  for (const auto& cmd : analysis.commands) {
    // A run-time value ($VAR, $(...)) could turn an allowed prefix into anything.
    if (cmd.dynamic)
      return Ask("approval:dynamic", "\"" + JoinArgv(cmd.argv) + "\" depends on run-time values");
    const PrefixRule* hit = nullptr;
    for (const PrefixRule& rule : *persisted) {
      bool ok =
          exact_grants_only ? IsExactGrant(rule, cmd.argv, cwd) : RuleMatches(rule, cmd.argv, cwd);
      if (ok) {
        hit = &rule;
        break;
      }
    }
    if (!hit && !exact_grants_only) {
      for (const PrefixRule& rule : settings_.static_rules) {
        if (RuleMatches(rule, cmd.argv, cwd)) {
          hit = &rule;
          break;
        }
      }
    }
    if (!hit)
      return Ask("approval:not-allowlisted",
                 "\"" + JoinArgv(cmd.argv) + "\" is not on the allowlist");
    if (first_rule.empty()) first_rule = RuleName(*hit);
  }
  return Allow(first_rule);
}

Expected<CheckResult> ApprovalManager::Check(const ApprovalSubject& subject,
                                             const execpolicy::Analysis& analysis) const {
  using execpolicy::Decision;
  if (analysis.decision == Decision::kDeny) {
    return Deny(analysis.rule,
                analysis.reason.empty() ? "blocked by command policy" : analysis.reason);
  }
  if (settings_.security == ExecSecurity::kDeny) {
    return Deny("approval:security=deny",
                "shell commands are disabled (tools.execApproval.security=deny)");
  }
  bool ask_off = settings_.ask == ExecAsk::kOff;
  if (analysis.decision == Decision::kAsk || settings_.ask == ExecAsk::kAlways) {
    auto grant = MatchRules(subject, analysis, /*exact_grants_only=*/true);
    if (!grant) return grant;
    if (grant->verdict == CheckVerdict::kAllow) return grant;
    if (analysis.decision == Decision::kAsk) {
      if (ask_off)
        return Deny(analysis.rule,
                    analysis.reason + " (approvals are off: tools.execApproval.ask=off)");
      return Ask(analysis.rule, analysis.reason);
    }
    return Ask("approval:ask=always",
               "every command needs approval (tools.execApproval.ask=always)");
  }
  if (settings_.security == ExecSecurity::kFull && ask_off) return Allow("");
  auto listed = MatchRules(subject, analysis, /*exact_grants_only=*/false);
  if (!listed || listed->verdict == CheckVerdict::kAllow) return listed;
  if (ask_off)
    return Deny(listed->rule,
                listed->reason + " (tools.execApproval: security=allowlist, ask=off)");
  return listed;
}

Expected<ApprovalRequest> ApprovalManager::Request(const ApprovalSubject& subject,
                                                   const execpolicy::Analysis& analysis,
                                                   const CheckResult& why) {
  ApprovalRequest a;
  a.id = NewRequestId();
  a.agent_id = subject.agent_id;
  a.user_id = subject.user_id;
  a.session_key = subject.session_key;
  a.command = subject.command;
  a.canonical = CanonicalCommand(analysis);
  a.cwd = NormalizeCwd(subject.cwd);
  for (const auto& cmd : analysis.commands) a.argv.push_back(cmd.argv);
  a.rule = why.rule;
  a.reason = why.reason;
  a.created_at = store::UnixMillisNow();
  a.expires_at = a.created_at + settings_.timeout.count();
  if (auto st = store_.Insert(a); !st) return std::unexpected(st.error());
  Publish("approval.requested", a);
  return a;
}

Expected<ApprovalRequest> ApprovalManager::Wait(std::string_view id, Clock::time_point deadline,
                                                std::stop_token stop) {
  bool caller_gave_up = false;
  while (true) {
    uint64_t seen;
    {
      std::lock_guard lock(mu_);
      seen = decisions_;
    }
    auto row = store_.Get(id);
    if (!row) return std::unexpected(row.error());
    if (!*row) return Fail(ErrorCode::kNotFound, "no approval request " + std::string(id));
    ApprovalRequest& a = **row;
    if (a.status != ApprovalStatus::kPending) {
      if (a.status == ApprovalStatus::kExpired) {
        a.reason = caller_gave_up ? "the call ended before a decision"
                                  : "approval timed out after " + DurationText(settings_.timeout);
      }
      Publish("approval.decided", a);
      return a;
    }
    auto now = Clock::now();
    auto expiry = now + std::chrono::milliseconds(
                            std::max<int64_t>(0, a.expires_at - store::UnixMillisNow()));
    auto give_up = std::min(deadline, expiry);
    if (now >= give_up || stop.stop_requested()) {
      caller_gave_up = now < expiry;
      // Expire only if still pending: a decision may have landed since the read.
      auto expired = store_.Expire(id);
      if (!expired) return std::unexpected(expired.error());
      continue;
    }
    std::unique_lock lock(mu_);
    decided_.wait_until(lock, stop, std::min(give_up, now + settings_.poll_interval),
                        [&] { return decisions_ != seen; });
  }
}

Expected<ApprovalRequest> ApprovalManager::Decide(std::string_view id, ApprovalDecision decision,
                                                  std::string_view decided_by) {
  auto decided = store_.Decide(id, decision, decided_by);
  if (decided) {
    std::lock_guard lock(mu_);
    ++decisions_;
  }
  decided_.notify_all();
  return decided;
}

void ApprovalManager::Publish(std::string_view type, const ApprovalRequest& request) const {
  if (events_) events_->Publish(std::string(type), ToJson(request));
}

Expected<std::shared_ptr<ApprovalManager>> MakeApprovalManager(const Config& config,
                                                               store::Store& store,
                                                               std::shared_ptr<EventBus> events,
                                                               Redactor redact) {
  auto settings = ApprovalSettingsFromConfig(config);
  if (!settings) return std::unexpected(settings.error());
  return std::make_shared<ApprovalManager>(store, std::move(*settings), std::move(events),
                                           std::move(redact));
}

}  // namespace clawtools
