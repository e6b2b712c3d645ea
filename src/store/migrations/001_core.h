// Migration 1: agents, context files, memory documents and chunks (the store issue).
#pragma once

#include "store/migrations.h"

namespace clawtools::store {

// Timestamps are Unix milliseconds set by the application, so both backends store the same
// values and no SQL dialect differences leak into the repositories.
inline constexpr Migration kMigration001Core = {1, "agents, context files, memory documents and chunks", R"sql(
CREATE TABLE agents (
  id         TEXT PRIMARY KEY,
  agent_key  TEXT NOT NULL UNIQUE,
  type       TEXT NOT NULL CHECK (type IN ('open', 'predefined')),
  tools_config TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE agent_context_files (
  agent_id   TEXT NOT NULL,
  file_name  TEXT NOT NULL,
  content    TEXT NOT NULL DEFAULT '',
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (agent_id, file_name)
);
CREATE TABLE user_context_files (
  agent_id   TEXT NOT NULL,
  user_id    TEXT NOT NULL,
  file_name  TEXT NOT NULL,
  content    TEXT NOT NULL DEFAULT '',
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (agent_id, user_id, file_name)
);
CREATE TABLE memory_documents (
  id         @ID@,
  agent_id   TEXT NOT NULL,
  user_id    TEXT NOT NULL DEFAULT '',
  path       TEXT NOT NULL,
  content    TEXT NOT NULL,
  hash       TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (agent_id, user_id, path)
);
CREATE TABLE memory_chunks (
  id                @ID@,
  document_id       BIGINT NOT NULL REFERENCES memory_documents (id) ON DELETE CASCADE,
  chunk_index       INTEGER NOT NULL,
  start_line        INTEGER NOT NULL,
  end_line          INTEGER NOT NULL,
  text              TEXT NOT NULL,
  hash              TEXT NOT NULL,
  embedding         @BLOB@,
  pending_embedding SMALLINT NOT NULL DEFAULT 1,
  UNIQUE (document_id, chunk_index)
);
CREATE INDEX memory_chunks_pending ON memory_chunks (id) WHERE pending_embedding = 1;
)sql"};

}  // namespace clawtools::store
