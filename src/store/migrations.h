// Versioned schema migrations. Each migration is applied once, in order, inside the opening
// transaction, and recorded in `schema_migrations(version, name, applied_at)`. On PostgreSQL
// concurrent openers serialise on a transaction-scoped advisory lock, so several gateway
// instances can start against one database. New features append migrations; released ones
// are never edited.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/error.h"
#include "store/store.h"

namespace clawtools::store {

struct Migration {
  int version;
  std::string_view name;
  // Portable DDL. Two tokens are expanded per backend because the dialects differ there:
  //   @ID@   an auto-assigned 64-bit primary key
  //   @BLOB@ a binary column
  std::string_view sql;
};

std::span<const Migration> AllMigrations();

// The DDL of `m` for `backend`, tokens expanded.
std::string MigrationSql(const Migration& m, Backend backend);

// Applies the pending migrations in `tx` (which the caller commits) and returns the schema
// version. Fails when the database is newer than this binary.
Expected<int> ApplyMigrations(Transaction& tx);

}  // namespace clawtools::store
