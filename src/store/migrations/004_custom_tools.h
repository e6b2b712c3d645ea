// Migration 4: custom tools (the custom tools issue).
#pragma once

#include "store/migrations.h"

namespace clawtools::store {

// `env` is a JSON object of variable name -> "aes-gcm:..." (each value encrypted on its own,
// GoClaw's format, so names stay listable without the key). `agent_id` NULL means global.
// `custom_tools_version` holds one row whose counter every change bumps in the same
// transaction: SQLite gateways poll it (PostgreSQL ones also get a NOTIFY).
inline constexpr Migration kMigration004CustomTools = {4, "custom tools", R"sql(
CREATE TABLE custom_tools (
  id              TEXT PRIMARY KEY,
  name            TEXT NOT NULL,
  description     TEXT NOT NULL DEFAULT '',
  parameters      TEXT NOT NULL DEFAULT '{}',
  command         TEXT NOT NULL,
  working_dir     TEXT NOT NULL DEFAULT '',
  timeout_seconds INTEGER NOT NULL DEFAULT 60,
  env             TEXT NOT NULL DEFAULT '{}',
  agent_id        TEXT,
  enabled         SMALLINT NOT NULL DEFAULT 1,
  created_at      BIGINT NOT NULL,
  updated_at      BIGINT NOT NULL
);
CREATE UNIQUE INDEX custom_tools_global_name ON custom_tools (name) WHERE agent_id IS NULL;
CREATE UNIQUE INDEX custom_tools_agent_name ON custom_tools (agent_id, name) WHERE agent_id IS NOT NULL;
CREATE TABLE custom_tools_version (
  id      INTEGER PRIMARY KEY,
  version BIGINT NOT NULL
);
INSERT INTO custom_tools_version (id, version) VALUES (1, 0);
)sql"};

}  // namespace clawtools::store
