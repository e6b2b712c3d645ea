// One backend session (internal to the store library). A Connection is used by one thread at a
// time: the pool hands it out exclusively. Repositories never see this type; they go through
// Store and Transaction.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "core/error.h"
#include "store/sql.h"

namespace clawtools::store {

class Connection {
 public:
  virtual ~Connection() = default;

  virtual Backend backend() const = 0;
  // One statement with `$N` placeholders bound to `params`. Returns the affected row count.
  virtual Expected<int64_t> Exec(std::string_view sql, const Params& params) = 0;
  virtual Expected<Rows> Query(std::string_view sql, const Params& params) = 0;
  // Several ';'-separated statements without parameters (migration scripts).
  virtual Status ExecScript(std::string_view sql) = 0;
  // False once the session cannot be reused (server gone, or left inside a transaction);
  // the pool then closes it instead of handing it out again.
  virtual bool Reusable() = 0;
};

struct SqliteConnectOptions {
  std::chrono::milliseconds busy_timeout{5000};
};

// `path` is a file path or ":memory:". Enables WAL (files only), foreign keys and the busy
// timeout on every connection.
Expected<std::unique_ptr<Connection>> ConnectSqlite(const std::string& path,
                                                    const SqliteConnectOptions& options);

// `conninfo` is a postgres:// URL or a libpq keyword string. `connect_timeout_seconds` applies
// unless the conninfo sets its own.
Expected<std::unique_ptr<Connection>> ConnectPostgres(const std::string& conninfo,
                                                      int connect_timeout_seconds);

}  // namespace clawtools::store
