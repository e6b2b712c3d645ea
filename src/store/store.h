// The storage layer: one Store per database, shared by every thread of the process (and, on
// PostgreSQL, by several gateway processes). Repositories (AgentStore, ContextFileStore,
// MemoryStore, ...) are written once against Executor with portable SQL and `$1`-style
// placeholders; each backend translates what it must.
//
// Every call returns errors as values. Error::for_model never contains SQL, paths or
// connection strings; Error::for_log does.
#pragma once

#include <chrono>
#include <memory>
#include <string_view>
#include <type_traits>

#include "core/error.h"
#include "store/connection_pool.h"
#include "store/sql.h"

namespace clawtools::store {

struct StoreOptions {
  // Pool size. A SQLite ":memory:" database always uses one connection (each connection
  // would otherwise see its own empty database).
  size_t max_connections = 4;
  // How long to wait for a SQLite lock and for a free pooled connection.
  std::chrono::milliseconds busy_timeout{5000};
  // PostgreSQL connect timeout unless the URL sets connect_timeout itself.
  int connect_timeout_seconds = 10;
};

// Something that runs SQL: the Store itself (each call in its own implicit transaction) or a
// Transaction.
class Executor {
 public:
  virtual ~Executor() = default;
  virtual Backend backend() const = 0;
  // Returns the number of rows affected.
  virtual Expected<int64_t> Exec(std::string_view sql, const Params& params = {}) = 0;
  virtual Expected<Rows> Query(std::string_view sql, const Params& params = {}) = 0;
};

// An open transaction holding one pooled connection. Rolls back on destruction unless
// Commit() succeeded. After a failed statement PostgreSQL refuses further statements until
// rollback, so callers should stop at the first error (Store::InTransaction does).
class Transaction final : public Executor {
 public:
  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&&) = delete;
  ~Transaction() override;

  Backend backend() const override { return backend_; }
  Expected<int64_t> Exec(std::string_view sql, const Params& params = {}) override;
  Expected<Rows> Query(std::string_view sql, const Params& params = {}) override;
  // Several statements without parameters, for DDL.
  Status ExecScript(std::string_view sql);

  Status Commit();
  Status Rollback();

 private:
  friend class Store;
  Transaction(ConnectionPool::Lease lease, Backend backend);
  Status CheckOpen() const;

  ConnectionPool::Lease lease_;
  Backend backend_;
  bool open_ = true;
};

class Store final : public Executor {
 public:
  // `url`: a SQLite file path, ":memory:", or "sqlite:<path>"; or a PostgreSQL
  // "postgres://..." / "postgresql://..." URL or libpq keyword string ("host=... dbname=...").
  // Connects once (so a bad URL or unreachable server fails here) and applies pending schema
  // migrations before returning.
  static Expected<std::unique_ptr<Store>> Open(std::string_view url, StoreOptions options = {});

  Backend backend() const override { return backend_; }
  // The schema version after migrations at open.
  int schema_version() const { return schema_version_; }

  Expected<int64_t> Exec(std::string_view sql, const Params& params = {}) override;
  Expected<Rows> Query(std::string_view sql, const Params& params = {}) override;

  // SQLite transactions take the write lock up front (BEGIN IMMEDIATE): a deferred transaction
  // that reads and then writes can fail with SQLITE_BUSY without waiting.
  Expected<Transaction> Begin();

  // Runs `fn(Transaction&)`, which returns Status or Expected<T>; commits when it succeeds and
  // rolls back when it fails.
  template <class F>
  std::invoke_result_t<F&, Transaction&> InTransaction(F&& fn) {
    auto tx = Begin();
    if (!tx) return std::unexpected(tx.error());
    auto result = fn(*tx);
    if (!result) return result;
    if (auto st = tx->Commit(); !st) return std::unexpected(st.error());
    return result;
  }

 private:
  Store(Backend backend, ConnectionPool::Factory factory, size_t pool_size,
        std::chrono::milliseconds wait);

  Backend backend_;
  ConnectionPool pool_;
  int schema_version_ = 0;
};

// Same as Store::Open.
inline Expected<std::unique_ptr<Store>> OpenStore(std::string_view url, StoreOptions options = {}) {
  return Store::Open(url, options);
}

}  // namespace clawtools::store
