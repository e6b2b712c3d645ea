// Migration 3: MCP server definitions, per-agent and per-user grants, access requests and the
// tool-definition hashes behind drift detection (the MCP issue).
#pragma once

#include "store/migrations.h"

namespace clawtools::store {

// mcp_servers mirrors tools.mcp_servers.<name> in the config file; args/env/headers are JSON
// text (env and headers will be encrypted by a later issue, hence TEXT rather than a JSON type).
// Grants: an agent grant is what makes a server reachable for an agent; a user grant can narrow
// it. tool_allow NULL means every tool. mcp_tool_hashes is keyed by server *name* because
// servers from the config file have no row in mcp_servers. `hash` is the last reviewed (or first
// seen) definition; a changed definition goes to pending_hash with status 'drifted' until an
// operator approves it.
inline constexpr Migration kMigration003Mcp = {
    3, "MCP servers, grants, access requests and tool hashes", R"sql(
CREATE TABLE mcp_servers (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  transport   TEXT NOT NULL CHECK (transport IN ('stdio', 'sse', 'streamable-http')),
  command     TEXT NOT NULL DEFAULT '',
  args        TEXT NOT NULL DEFAULT '[]',
  env         TEXT NOT NULL DEFAULT '{}',
  url         TEXT NOT NULL DEFAULT '',
  headers     TEXT NOT NULL DEFAULT '{}',
  enabled     SMALLINT NOT NULL DEFAULT 1,
  tool_prefix TEXT NOT NULL DEFAULT '',
  timeout_sec INTEGER NOT NULL DEFAULT 60,
  created_at  BIGINT NOT NULL,
  updated_at  BIGINT NOT NULL
);
CREATE TABLE mcp_agent_grants (
  id               @ID@,
  server_id        TEXT NOT NULL REFERENCES mcp_servers (id) ON DELETE CASCADE,
  agent_id         TEXT NOT NULL,
  tool_allow       TEXT,
  tool_deny        TEXT,
  config_overrides TEXT,
  enabled          SMALLINT NOT NULL DEFAULT 1,
  granted_by       TEXT NOT NULL DEFAULT '',
  created_at       BIGINT NOT NULL,
  UNIQUE (server_id, agent_id)
);
CREATE INDEX mcp_agent_grants_agent ON mcp_agent_grants (agent_id);
CREATE TABLE mcp_user_grants (
  id               @ID@,
  server_id        TEXT NOT NULL REFERENCES mcp_servers (id) ON DELETE CASCADE,
  user_id          TEXT NOT NULL,
  tool_allow       TEXT,
  tool_deny        TEXT,
  config_overrides TEXT,
  enabled          SMALLINT NOT NULL DEFAULT 1,
  granted_by       TEXT NOT NULL DEFAULT '',
  created_at       BIGINT NOT NULL,
  UNIQUE (server_id, user_id)
);
CREATE INDEX mcp_user_grants_user ON mcp_user_grants (user_id);
CREATE TABLE mcp_access_requests (
  id          TEXT PRIMARY KEY,
  server_id   TEXT NOT NULL REFERENCES mcp_servers (id) ON DELETE CASCADE,
  scope       TEXT NOT NULL CHECK (scope IN ('agent', 'user')),
  agent_id    TEXT NOT NULL DEFAULT '',
  user_id     TEXT NOT NULL DEFAULT '',
  tools       TEXT,
  reason      TEXT NOT NULL DEFAULT '',
  status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  reviewer    TEXT NOT NULL DEFAULT '',
  review_note TEXT NOT NULL DEFAULT '',
  created_at  BIGINT NOT NULL,
  reviewed_at BIGINT
);
CREATE INDEX mcp_access_requests_pending ON mcp_access_requests (server_id) WHERE status = 'pending';
CREATE TABLE mcp_tool_hashes (
  server_name  TEXT NOT NULL,
  tool_name    TEXT NOT NULL,
  hash         TEXT NOT NULL,
  pending_hash TEXT,
  status       TEXT NOT NULL CHECK (status IN ('ok', 'drifted', 'approved')),
  first_seen   BIGINT NOT NULL,
  updated_at   BIGINT NOT NULL,
  PRIMARY KEY (server_name, tool_name)
);
)sql"};

}  // namespace clawtools::store
