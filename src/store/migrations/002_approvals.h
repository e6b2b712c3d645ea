// Migration 2: exec approval requests and the persisted allowlist (the exec approvals issue).
#pragma once

#include "store/migrations.h"

namespace clawtools::store {

// exec_approvals: one row per request, so a CLI in another process or another gateway on the
// same PostgreSQL can list and decide what a waiting call asked for. argv is the JSON array of
// every command's argv the analyser found; the decision is bound to those and to cwd.
// exec_allowlist_rules: argv-prefix rules from allow-always (cwd set) or the CLI; argv_prefix
// is a JSON array of words, compared element by element in the application.
inline constexpr Migration kMigration002Approvals = {
    2, "exec approvals and the persisted allowlist", R"sql(
CREATE TABLE exec_approvals (
  id          TEXT PRIMARY KEY,
  agent_id    TEXT NOT NULL DEFAULT '',
  user_id     TEXT NOT NULL DEFAULT '',
  session_key TEXT NOT NULL DEFAULT '',
  command     TEXT NOT NULL,
  canonical   TEXT NOT NULL,
  cwd         TEXT NOT NULL,
  argv        TEXT NOT NULL,
  rule        TEXT NOT NULL DEFAULT '',
  reason      TEXT NOT NULL DEFAULT '',
  status      TEXT NOT NULL CHECK (status IN ('pending', 'allowed', 'denied', 'expired')),
  decision    TEXT CHECK (decision IN ('allow-once', 'allow-always', 'deny')),
  decided_by  TEXT NOT NULL DEFAULT '',
  created_at  BIGINT NOT NULL,
  expires_at  BIGINT NOT NULL,
  decided_at  BIGINT
);
CREATE INDEX exec_approvals_status ON exec_approvals (status, created_at);
CREATE TABLE exec_allowlist_rules (
  id          @ID@,
  agent_id    TEXT NOT NULL DEFAULT '',
  argv_prefix TEXT NOT NULL,
  cwd         TEXT,
  source      TEXT NOT NULL,
  created_at  BIGINT NOT NULL
);
CREATE INDEX exec_allowlist_rules_agent ON exec_allowlist_rules (agent_id);
)sql"};

}  // namespace clawtools::store
