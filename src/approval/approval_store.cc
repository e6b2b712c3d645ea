#include "approval/approval_store.h"

#include "store/clock.h"

namespace clawtools {
namespace {

using store::Params;
using store::Row;
using store::UnixMillisNow;

constexpr std::string_view kColumns =
    "id, agent_id, user_id, session_key, command, canonical, cwd, argv, rule, reason, status, "
    "decision, decided_by, created_at, expires_at, decided_at";

std::string Select(std::string_view where) {
  return "SELECT " + std::string(kColumns) + " FROM exec_approvals " + std::string(where);
}

ApprovalRequest FromRow(const Row& r) {
  ApprovalRequest a;
  a.id = r.Text(0);
  a.agent_id = r.Text(1);
  a.user_id = r.Text(2);
  a.session_key = r.Text(3);
  a.command = r.Text(4);
  a.canonical = r.Text(5);
  a.cwd = r.Text(6);
  Json argv = ParseJsonLenient(r.Text(7));
  if (argv.is_array()) {
    for (const Json& cmd : argv) {
      if (cmd.is_array()) a.argv.push_back(cmd.get<std::vector<std::string>>());
    }
  }
  a.rule = r.Text(8);
  a.reason = r.Text(9);
  a.status = ParseApprovalStatus(r.Text(10)).value_or(ApprovalStatus::kExpired);
  if (!r.IsNull(11)) a.decision = ParseApprovalDecision(r.Text(11));
  a.decided_by = r.Text(12);
  a.created_at = r.Int(13);
  a.expires_at = r.Int(14);
  a.decided_at = r.Int(15);
  return a;
}

PrefixRule RuleFromRow(const Row& r) {
  PrefixRule rule;
  rule.id = r.Int(0);
  rule.agent_id = r.Text(1);
  Json prefix = ParseJsonLenient(r.Text(2));
  if (prefix.is_array()) {
    for (const Json& w : prefix) {
      if (w.is_string()) rule.argv_prefix.push_back(w.get<std::string>());
    }
  }
  if (!r.IsNull(3)) rule.cwd = r.Text(3);
  rule.source = r.Text(4);
  rule.created_at = r.Int(5);
  return rule;
}

store::SqlValue OptionalText(const std::optional<std::string>& s) {
  if (!s) return std::monostate{};
  return *s;
}

Expected<PrefixRule> InsertRule(store::Executor& db, PrefixRule rule) {
  if (auto valid = ValidatePrefix(rule.argv_prefix); !valid) return std::unexpected(valid.error());
  rule.created_at = UnixMillisNow();
  auto rows = db.Query(
      "INSERT INTO exec_allowlist_rules (agent_id, argv_prefix, cwd, source, created_at) "
      "VALUES ($1, $2, $3, $4, $5) RETURNING id",
      {rule.agent_id, Json(rule.argv_prefix).dump(), OptionalText(rule.cwd), rule.source,
       rule.created_at});
  if (!rows) return std::unexpected(rows.error());
  rule.id = rows->at(0).Int(0);
  return rule;
}

}  // namespace

Status ApprovalStore::Insert(const ApprovalRequest& a) const {
  auto r = store_.Exec(
      "INSERT INTO exec_approvals (id, agent_id, user_id, session_key, command, canonical, cwd, "
      "argv, rule, reason, status, decided_by, created_at, expires_at) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', '', $11, $12)",
      {a.id, a.agent_id, a.user_id, a.session_key, a.command, a.canonical, a.cwd,
       Json(a.argv).dump(), a.rule, a.reason, a.created_at, a.expires_at});
  if (!r) return std::unexpected(r.error());
  return {};
}

Status ApprovalStore::ExpireOverdue() const {
  // Requests nobody waits for any more (the waiting process died) must not stay decidable.
  auto r = store_.Exec(
      "UPDATE exec_approvals SET status = 'expired', decided_by = 'timeout', decided_at = $1 "
      "WHERE status = 'pending' AND expires_at <= $1",
      {UnixMillisNow()});
  if (!r) return std::unexpected(r.error());
  return {};
}

Expected<std::optional<ApprovalRequest>> ApprovalStore::Get(std::string_view id) const {
  if (auto st = ExpireOverdue(); !st) return std::unexpected(st.error());
  auto rows = store_.Query(Select("WHERE id = $1"), {std::string(id)});
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::nullopt;
  return FromRow(rows->front());
}

Expected<std::vector<ApprovalRequest>> ApprovalStore::List(
    std::optional<ApprovalStatus> status) const {
  if (auto st = ExpireOverdue(); !st) return std::unexpected(st.error());
  auto rows = status ? store_.Query(Select("WHERE status = $1 ORDER BY created_at DESC, id"),
                                    {std::string(ApprovalStatusName(*status))})
                     : store_.Query(Select("ORDER BY created_at DESC, id"));
  if (!rows) return std::unexpected(rows.error());
  std::vector<ApprovalRequest> out;
  out.reserve(rows->size());
  for (const Row& r : *rows) out.push_back(FromRow(r));
  return out;
}

Expected<ApprovalRequest> ApprovalStore::Decide(std::string_view id, ApprovalDecision decision,
                                                std::string_view decided_by) const {
  if (auto st = ExpireOverdue(); !st) return std::unexpected(st.error());
  return store_.InTransaction([&](store::Transaction& tx) -> Expected<ApprovalRequest> {
    auto rows = tx.Query(Select("WHERE id = $1"), {std::string(id)});
    if (!rows) return std::unexpected(rows.error());
    if (rows->empty()) return Fail(ErrorCode::kNotFound, "no approval request " + std::string(id));
    ApprovalRequest a = FromRow(rows->front());
    if (a.status != ApprovalStatus::kPending) {
      return Fail(ErrorCode::kAlreadyExists,
                  "approval request " + a.id + " is already " + ApprovalStatusName(a.status));
    }
    if (decision == ApprovalDecision::kAllowAlways) {
      if (a.argv.empty()) {
        return Fail(ErrorCode::kInvalidArgument,
                    "cannot always-allow a command that was not parsed; allow it once");
      }
      for (const auto& argv : a.argv) {
        if (auto valid = ValidatePrefix(argv); !valid) {
          return Fail(ErrorCode::kInvalidArgument, valid.error().for_model + "; allow it once");
        }
      }
    }
    a.status =
        decision == ApprovalDecision::kDeny ? ApprovalStatus::kDenied : ApprovalStatus::kAllowed;
    a.decision = decision;
    a.decided_by = std::string(decided_by);
    a.decided_at = UnixMillisNow();
    auto updated = tx.Exec(
        "UPDATE exec_approvals SET status = $2, decision = $3, decided_by = $4, decided_at = $5 "
        "WHERE id = $1 AND status = 'pending'",
        {a.id, std::string(ApprovalStatusName(a.status)),
         std::string(ApprovalDecisionName(decision)), a.decided_by, a.decided_at});
    if (!updated) return std::unexpected(updated.error());
    if (*updated == 0) {
      return Fail(ErrorCode::kAlreadyExists, "approval request " + a.id + " is already decided");
    }
    if (decision == ApprovalDecision::kAllowAlways) {
      for (const auto& argv : a.argv) {
        auto added = InsertRule(tx, PrefixRule{.agent_id = a.agent_id,
                                               .argv_prefix = argv,
                                               .cwd = a.cwd,
                                               .source = "approval:" + a.id});
        if (!added) return std::unexpected(added.error());
      }
    }
    return a;
  });
}

Expected<bool> ApprovalStore::Expire(std::string_view id) const {
  auto r = store_.Exec(
      "UPDATE exec_approvals SET status = 'expired', decided_by = 'timeout', decided_at = $2 "
      "WHERE id = $1 AND status = 'pending'",
      {std::string(id), UnixMillisNow()});
  if (!r) return std::unexpected(r.error());
  return *r > 0;
}

Expected<PrefixRule> ApprovalStore::AddRule(PrefixRule rule) const {
  return InsertRule(store_, std::move(rule));
}

Expected<std::vector<PrefixRule>> ApprovalStore::Rules(
    std::optional<std::string_view> agent_id) const {
  constexpr std::string_view kSelect =
      "SELECT id, agent_id, argv_prefix, cwd, source, created_at FROM exec_allowlist_rules ";
  auto rows = agent_id ? store_.Query(std::string(kSelect) + "WHERE agent_id = $1 ORDER BY id",
                                      {std::string(*agent_id)})
                       : store_.Query(std::string(kSelect) + "ORDER BY id");
  if (!rows) return std::unexpected(rows.error());
  std::vector<PrefixRule> out;
  out.reserve(rows->size());
  for (const Row& r : *rows) out.push_back(RuleFromRow(r));
  return out;
}

Status ApprovalStore::RemoveRule(int64_t id) const {
  auto r = store_.Exec("DELETE FROM exec_allowlist_rules WHERE id = $1", {id});
  if (!r) return std::unexpected(r.error());
  if (*r == 0) return Fail(ErrorCode::kNotFound, "no allowlist rule " + std::to_string(id));
  return {};
}

}  // namespace clawtools
