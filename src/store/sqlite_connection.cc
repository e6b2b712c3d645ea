// SQLite backend: prepared statements cached per connection, `$N` rewritten to `?N`.
#include <sqlite3.h>

#include <memory>
#include <string>
#include <unordered_map>

#include "store/connection.h"
#include "store/str_cat.h"

namespace clawtools::store {
namespace {

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct StmtFinalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using DbPtr = std::unique_ptr<sqlite3, DbCloser>;
using StmtPtr = std::unique_ptr<sqlite3_stmt, StmtFinalizer>;

// Returns a cached statement to a clean state however the caller leaves.
class StmtReset {
 public:
  explicit StmtReset(sqlite3_stmt* s) : s_(s) {}
  ~StmtReset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  StmtReset(const StmtReset&) = delete;
  StmtReset& operator=(const StmtReset&) = delete;

 private:
  sqlite3_stmt* s_;
};

ErrorCode CodeFor(int rc) {
  switch (rc & 0xff) {
    case SQLITE_CONSTRAINT:
      return (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
                 ? ErrorCode::kAlreadyExists
                 : ErrorCode::kInvalidArgument;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_FULL:
      return ErrorCode::kUnavailable;
    default:
      return ErrorCode::kInternal;
  }
}

class SqliteConnection final : public Connection {
 public:
  explicit SqliteConnection(DbPtr db) : db_(std::move(db)) {}

  Backend backend() const override { return Backend::kSqlite; }

  Expected<int64_t> Exec(std::string_view sql, const Params& params) override {
    auto stmt = Prepare(sql, params);
    if (!stmt) return std::unexpected(stmt.error());
    StmtReset reset(*stmt);
    int rc;
    while ((rc = sqlite3_step(*stmt)) == SQLITE_ROW) {
    }
    if (rc != SQLITE_DONE) return Failure(rc, sql);
    return sqlite3_changes64(db_.get());
  }

  Expected<Rows> Query(std::string_view sql, const Params& params) override {
    auto stmt = Prepare(sql, params);
    if (!stmt) return std::unexpected(stmt.error());
    StmtReset reset(*stmt);
    Rows rows;
    int rc;
    const int ncol = sqlite3_column_count(*stmt);
    while ((rc = sqlite3_step(*stmt)) == SQLITE_ROW) {
      std::vector<SqlValue> values;
      values.reserve(ncol);
      for (int c = 0; c < ncol; ++c) values.push_back(Column(*stmt, c));
      rows.emplace_back(std::move(values));
    }
    if (rc != SQLITE_DONE) return Failure(rc, sql);
    return rows;
  }

  Status ExecScript(std::string_view sql) override {
    char* err = nullptr;
    int rc = sqlite3_exec(db_.get(), std::string(sql).c_str(), nullptr, nullptr, &err);
    std::unique_ptr<char, decltype(&sqlite3_free)> owned(err, &sqlite3_free);
    if (rc != SQLITE_OK) {
      return Fail(CodeFor(rc), "storage error",
                  StrCat("sqlite script failed: ", err ? err : sqlite3_errstr(rc)));
    }
    return {};
  }

  bool Reusable() override { return sqlite3_get_autocommit(db_.get()) != 0; }

 private:
  std::unexpected<Error> Failure(int rc, std::string_view sql) const {
    return Fail(CodeFor(rc), "storage error",
                StrCat("sqlite: ", sqlite3_errmsg(db_.get()), " (code ", rc, ") in: ", sql));
  }

  static SqlValue Column(sqlite3_stmt* s, int c) {
    switch (sqlite3_column_type(s, c)) {
      case SQLITE_INTEGER:
        return static_cast<int64_t>(sqlite3_column_int64(s, c));
      case SQLITE_FLOAT:
        return sqlite3_column_double(s, c);
      case SQLITE_TEXT:
        return std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, c)),
                           sqlite3_column_bytes(s, c));
      case SQLITE_BLOB: {
        const void* p = sqlite3_column_blob(s, c);
        int n = sqlite3_column_bytes(s, c);
        return Blob{p ? std::string(static_cast<const char*>(p), n) : std::string()};
      }
      default:
        return std::monostate{};
    }
  }

  Expected<sqlite3_stmt*> Prepare(std::string_view sql, const Params& params) {
    auto key = std::string(sql);
    auto it = cache_.find(key);
    if (it == cache_.end()) {
      std::string translated = TranslatePlaceholdersForSqlite(sql);
      sqlite3_stmt* raw = nullptr;
      int rc = sqlite3_prepare_v3(db_.get(), translated.c_str(), -1, SQLITE_PREPARE_PERSISTENT,
                                  &raw, nullptr);
      StmtPtr stmt(raw);
      if (rc != SQLITE_OK) return Failure(rc, sql);
      if (!stmt) {
        return Fail(ErrorCode::kInternal, "storage error", StrCat("empty statement: ", sql));
      }
      it = cache_.emplace(std::move(key), std::move(stmt)).first;
    }
    sqlite3_stmt* s = it->second.get();
    if (sqlite3_bind_parameter_count(s) != static_cast<int>(params.size())) {
      return Fail(ErrorCode::kInternal, "storage error",
                  StrCat("statement wants ", sqlite3_bind_parameter_count(s), " parameters, got ",
                         params.size(), ": ", sql));
    }
    for (size_t i = 0; i < params.size(); ++i) {
      int idx = static_cast<int>(i) + 1;
      int rc = std::visit(
          [&](const auto& v) -> int {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>) {
              return sqlite3_bind_null(s, idx);
            } else if constexpr (std::is_same_v<T, int64_t>) {
              return sqlite3_bind_int64(s, idx, v);
            } else if constexpr (std::is_same_v<T, double>) {
              return sqlite3_bind_double(s, idx, v);
            } else if constexpr (std::is_same_v<T, std::string>) {
              // PostgreSQL text cannot hold NUL; reject it here too so both backends agree.
              if (v.find('\0') != std::string::npos) return SQLITE_MISMATCH;
              return sqlite3_bind_text64(s, idx, v.data(), v.size(), SQLITE_STATIC, SQLITE_UTF8);
            } else {
              // A zero-length pointer would bind NULL; an empty blob must stay a blob.
              if (v.bytes.empty()) return sqlite3_bind_zeroblob(s, idx, 0);
              return sqlite3_bind_blob64(s, idx, v.bytes.data(), v.bytes.size(), SQLITE_STATIC);
            }
          },
          params[i]);
      if (rc != SQLITE_OK) {
        sqlite3_clear_bindings(s);
        if (rc == SQLITE_MISMATCH) {
          return Fail(ErrorCode::kInvalidArgument, "text must not contain NUL bytes",
                      StrCat("NUL byte in parameter ", idx, " of: ", sql));
        }
        return Failure(rc, sql);
      }
    }
    return s;
  }

  // cache_ follows db_ so the statements are finalized before the database closes.
  DbPtr db_;
  std::unordered_map<std::string, StmtPtr> cache_;
};

}  // namespace

Expected<std::unique_ptr<Connection>> ConnectSqlite(const std::string& path,
                                                    const SqliteConnectOptions& options) {
  sqlite3* raw = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
  int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  DbPtr db(raw);
  if (rc != SQLITE_OK) {
    return Fail(
        ErrorCode::kUnavailable, "cannot open the database",
        StrCat("sqlite open ", path, ": ", db ? sqlite3_errmsg(db.get()) : sqlite3_errstr(rc)));
  }
  sqlite3_extended_result_codes(db.get(), 1);
  sqlite3_busy_timeout(db.get(), static_cast<int>(options.busy_timeout.count()));
  auto conn = std::make_unique<SqliteConnection>(std::move(db));
  // WAL lets readers proceed during a write; NORMAL sync is durable across application crashes
  // in WAL mode, which is what a gateway needs.
  std::string_view pragmas = path == ":memory:"
                                 ? "PRAGMA foreign_keys=ON;"
                                 : "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                                   "PRAGMA foreign_keys=ON;";
  if (auto st = conn->ExecScript(pragmas); !st) {
    return Fail(ErrorCode::kUnavailable, "cannot open the database",
                StrCat("sqlite ", path, ": ", st.error().log_message()));
  }
  return conn;
}

}  // namespace clawtools::store
