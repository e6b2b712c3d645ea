#include "store/migrations.h"

#include "store/clock.h"
#include "store/migrations/001_core.h"
#include "store/migrations/002_approvals.h"
#include "store/migrations/003_mcp.h"
#include "store/migrations/004_custom_tools.h"
#include "store/str_cat.h"

namespace clawtools::store {
namespace {

// One file per migration under store/migrations/, listed here in order. Versions are
// reserved per feature so parallel work never collides.
constexpr Migration kMigrations[] = {
    kMigration001Core,
    kMigration002Approvals,
    kMigration003Mcp,
    kMigration004CustomTools,
};

// Arbitrary but fixed: every clawtools process must use the same key.
constexpr std::string_view kLockSql = "SELECT pg_advisory_xact_lock(7236828392757101172)";

void ReplaceAll(std::string& s, std::string_view from, std::string_view to) {
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
}

}  // namespace

std::span<const Migration> AllMigrations() {
  return kMigrations;
}

std::string MigrationSql(const Migration& m, Backend backend) {
  std::string sql(m.sql);
  bool pg = backend == Backend::kPostgres;
  // SQLite only aliases the rowid when the type is spelled exactly INTEGER PRIMARY KEY.
  ReplaceAll(sql, "@ID@",
             pg ? "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY" : "INTEGER PRIMARY KEY");
  ReplaceAll(sql, "@BLOB@", pg ? "BYTEA" : "BLOB");
  return sql;
}

Expected<int> ApplyMigrations(Transaction& tx) {
  // The lock comes before CREATE TABLE IF NOT EXISTS: two racing creators would otherwise
  // collide on the catalog and one would fail.
  if (tx.backend() == Backend::kPostgres) {
    if (auto r = tx.Query(kLockSql); !r) return std::unexpected(r.error());
  }
  auto created = tx.Exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations ("
      " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
  if (!created) return std::unexpected(created.error());
  auto rows = tx.Query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations");
  if (!rows) return std::unexpected(rows.error());
  int current = static_cast<int>(rows->at(0).Int(0));
  int latest = kMigrations[std::size(kMigrations) - 1].version;
  if (current > latest) {
    return Fail(ErrorCode::kUnavailable, "the database was created by a newer clawtools",
                StrCat("schema version ", current, " is newer than this binary's ", latest));
  }
  for (const Migration& m : kMigrations) {
    if (m.version <= current) continue;
    if (auto st = tx.ExecScript(MigrationSql(m, tx.backend())); !st) {
      Error e = st.error();
      e.for_log = StrCat("migration ", m.version, " (", m.name, "): ", e.log_message());
      return std::unexpected(std::move(e));
    }
    auto recorded =
        tx.Exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                {int64_t{m.version}, std::string(m.name), UnixMillisNow()});
    if (!recorded) return std::unexpected(recorded.error());
    current = m.version;
  }
  return current;
}

}  // namespace clawtools::store
