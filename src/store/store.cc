#include "store/store.h"

#include <cctype>
#include <string>

#include "store/migrations.h"
#include "store/str_cat.h"

namespace clawtools::store {
namespace {

struct Target {
  Backend backend;
  std::string location;  // SQLite path or libpq conninfo
};

// A libpq keyword string starts with `keyword=`; a SQLite path practically never does, and
// "sqlite:" forces SQLite for the odd path that would.
bool LooksLikeKeywordString(std::string_view url) {
  size_t i = 0;
  while (i < url.size() && std::isspace(static_cast<unsigned char>(url[i]))) ++i;
  size_t start = i;
  while (i < url.size() && (std::isalnum(static_cast<unsigned char>(url[i])) || url[i] == '_')) {
    ++i;
  }
  if (i == start) return false;
  while (i < url.size() && std::isspace(static_cast<unsigned char>(url[i]))) ++i;
  return i < url.size() && url[i] == '=';
}

Expected<Target> ParseUrl(std::string_view url) {
  if (url.empty()) return Fail(ErrorCode::kInvalidArgument, "empty database URL");
  if (url.starts_with("postgres://") || url.starts_with("postgresql://") ||
      LooksLikeKeywordString(url)) {
    return Target{Backend::kPostgres, std::string(url)};
  }
  if (url.starts_with("sqlite://")) {
    url.remove_prefix(9);
  } else if (url.starts_with("sqlite:")) {
    url.remove_prefix(7);
  } else if (url.find("://") != std::string_view::npos) {
    return Fail(ErrorCode::kInvalidArgument, "unsupported database URL scheme",
                StrCat("unsupported database URL scheme: ", url.substr(0, url.find("://"))));
  }
  if (url.empty()) return Fail(ErrorCode::kInvalidArgument, "empty SQLite path");
  return Target{Backend::kSqlite, std::string(url)};
}

}  // namespace

Transaction::Transaction(ConnectionPool::Lease lease, Backend backend)
    : lease_(std::move(lease)), backend_(backend) {}

Transaction::Transaction(Transaction&& other) noexcept
    : lease_(std::move(other.lease_)),
      backend_(other.backend_),
      open_(std::exchange(other.open_, false)) {}

Transaction::~Transaction() {
  // A failed rollback leaves the connection inside a transaction; the pool then discards it.
  if (open_) (void)Rollback();
}

Status Transaction::CheckOpen() const {
  if (!open_) {
    return Fail(ErrorCode::kInternal, "storage error", "statement on a finished transaction");
  }
  return {};
}

Expected<int64_t> Transaction::Exec(std::string_view sql, const Params& params) {
  if (auto st = CheckOpen(); !st) return std::unexpected(st.error());
  return lease_->Exec(sql, params);
}

Expected<Rows> Transaction::Query(std::string_view sql, const Params& params) {
  if (auto st = CheckOpen(); !st) return std::unexpected(st.error());
  return lease_->Query(sql, params);
}

Status Transaction::ExecScript(std::string_view sql) {
  if (auto st = CheckOpen(); !st) return st;
  return lease_->ExecScript(sql);
}

Status Transaction::Commit() {
  if (auto st = CheckOpen(); !st) return st;
  auto r = lease_->Exec("COMMIT", {});
  if (!r) {
    (void)Rollback();
    return std::unexpected(r.error());
  }
  open_ = false;
  return {};
}

Status Transaction::Rollback() {
  if (auto st = CheckOpen(); !st) return st;
  open_ = false;
  auto r = lease_->Exec("ROLLBACK", {});
  if (!r) return std::unexpected(r.error());
  return {};
}

Store::Store(Backend backend, ConnectionPool::Factory factory, size_t pool_size,
             std::chrono::milliseconds wait)
    : backend_(backend), pool_(std::move(factory), pool_size, wait) {}

Expected<std::unique_ptr<Store>> Store::Open(std::string_view url, StoreOptions options) {
  auto target = ParseUrl(url);
  if (!target) return std::unexpected(target.error());

  ConnectionPool::Factory factory;
  size_t pool_size = options.max_connections;
  if (target->backend == Backend::kSqlite) {
    SqliteConnectOptions sqlite{options.busy_timeout};
    factory = [path = target->location, sqlite] { return ConnectSqlite(path, sqlite); };
    if (target->location == ":memory:") pool_size = 1;
  } else {
    factory = [conninfo = target->location, t = options.connect_timeout_seconds] {
      return ConnectPostgres(conninfo, t);
    };
  }
  std::unique_ptr<Store> store(
      new Store(target->backend, std::move(factory), pool_size, options.busy_timeout));
  auto version = store->InTransaction([](Transaction& tx) { return ApplyMigrations(tx); });
  if (!version) return std::unexpected(version.error());
  store->schema_version_ = *version;
  return store;
}

Expected<int64_t> Store::Exec(std::string_view sql, const Params& params) {
  auto lease = pool_.Acquire();
  if (!lease) return std::unexpected(lease.error());
  return (*lease)->Exec(sql, params);
}

Expected<Rows> Store::Query(std::string_view sql, const Params& params) {
  auto lease = pool_.Acquire();
  if (!lease) return std::unexpected(lease.error());
  return (*lease)->Query(sql, params);
}

Expected<Transaction> Store::Begin() {
  auto lease = pool_.Acquire();
  if (!lease) return std::unexpected(lease.error());
  auto begun = (*lease)->Exec(backend_ == Backend::kSqlite ? "BEGIN IMMEDIATE" : "BEGIN", {});
  if (!begun) return std::unexpected(begun.error());
  return Transaction(std::move(*lease), backend_);
}

}  // namespace clawtools::store
