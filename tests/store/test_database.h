// A fresh, empty database per test, on either backend, so tests never see each other's rows.
// SQLite: a file in a new temporary directory. PostgreSQL: a randomly named database created
// on the server at $CLAWTOOLS_TEST_PG_URL (see scripts/pg-test-server.sh) and dropped after.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "core/error.h"
#include "store/store.h"

namespace clawtools::store {

// So that gtest prints "sqlite"/"postgres" instead of raw bytes in failure messages (found by
// argument-dependent lookup, hence this namespace).
inline void PrintTo(Backend backend, std::ostream* os) {
  *os << BackendName(backend);
}

}  // namespace clawtools::store

namespace clawtools::store::testing {

class TestDatabase {
 public:
  // kUnavailable (with the reason) when the backend cannot be provided.
  static Expected<std::unique_ptr<TestDatabase>> Create(Backend backend);
  ~TestDatabase();

  const std::string& url() const { return url_; }

 private:
  TestDatabase(Backend backend, std::string url, std::string cleanup)
      : backend_(backend), url_(std::move(url)), cleanup_(std::move(cleanup)) {}

  Backend backend_;
  std::string url_;
  std::string cleanup_;  // temp dir (SQLite) or database name (PostgreSQL)
};

// The content of a fetched row, nullopt when missing or on error: lets a test compare without
// dereferencing an empty optional.
template <class T>
std::optional<std::string> ContentOf(const Expected<std::optional<T>>& row) {
  if (!row || !*row) return std::nullopt;
  return (*row)->content;
}

// The PostgreSQL server URL for tests, or "" when PG tests are to be skipped.
std::string PgTestUrl();

// Runs each test against a fresh database on SQLite and on PostgreSQL; the PostgreSQL variant
// is skipped when CLAWTOOLS_TEST_PG_URL is unset.
class BackendTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override;
  void TearDown() override;

  Backend backend() const { return GetParam(); }
  const std::string& url() const { return db_->url(); }
  // Opens another Store on the same database.
  std::unique_ptr<Store> OpenAnother(StoreOptions options = {});

  std::unique_ptr<TestDatabase> db_;
  std::unique_ptr<Store> store_;
};

std::string BackendParamName(const ::testing::TestParamInfo<Backend>& info);

#define CLAWTOOLS_INSTANTIATE_BACKENDS(suite)                                         \
  INSTANTIATE_TEST_SUITE_P(Backends, suite,                                           \
                           ::testing::Values(::clawtools::store::Backend::kSqlite,    \
                                             ::clawtools::store::Backend::kPostgres), \
                           ::clawtools::store::testing::BackendParamName)

}  // namespace clawtools::store::testing
