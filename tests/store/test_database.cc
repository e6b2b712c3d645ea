#include "test_database.h"

#include <libpq-fe.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>

namespace clawtools::store::testing {
namespace {

using PgConn = std::unique_ptr<PGconn, decltype(&PQfinish)>;

Expected<PgConn> AdminConnection() {
  PgConn conn(PQconnectdb(PgTestUrl().c_str()), &PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK) {
    return Fail(ErrorCode::kUnavailable, std::string("cannot reach the test PostgreSQL server: ") +
                                             PQerrorMessage(conn.get()));
  }
  return conn;
}

Status AdminExec(const std::string& sql) {
  auto conn = AdminConnection();
  if (!conn) return std::unexpected(conn.error());
  std::unique_ptr<PGresult, decltype(&PQclear)> res(PQexec(conn->get(), sql.c_str()), &PQclear);
  if (PQresultStatus(res.get()) != PGRES_COMMAND_OK) {
    return Fail(ErrorCode::kInternal, sql + ": " + PQerrorMessage(conn->get()));
  }
  return {};
}

// The admin URL with its database replaced, as a libpq keyword string.
Expected<std::string> UrlForDatabase(const std::string& dbname) {
  char* err = nullptr;
  PQconninfoOption* opts = PQconninfoParse(PgTestUrl().c_str(), &err);
  if (!opts) {
    std::string msg = err ? err : "parse failed";
    PQfreemem(err);
    return Fail(ErrorCode::kInvalidArgument, "bad CLAWTOOLS_TEST_PG_URL: " + msg);
  }
  std::string out;
  for (PQconninfoOption* o = opts; o->keyword; ++o) {
    std::string key = o->keyword;
    if (key == "dbname" || !o->val) continue;
    std::string val = o->val;
    out += key + "='";
    for (char c : val) {
      if (c == '\'' || c == '\\') out += '\\';
      out += c;
    }
    out += "' ";
  }
  PQconninfoFree(opts);
  return out + "dbname=" + dbname;
}

std::string RandomSuffix() {
  static thread_local std::mt19937_64 rng(std::random_device{}() ^ ::getpid());
  return std::to_string(rng());
}

}  // namespace

std::string PgTestUrl() {
  const char* url = std::getenv("CLAWTOOLS_TEST_PG_URL");
  return url ? url : "";
}

Expected<std::unique_ptr<TestDatabase>> TestDatabase::Create(Backend backend) {
  if (backend == Backend::kSqlite) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "clawtools-store-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) return Fail(ErrorCode::kUnavailable, "mkdtemp failed");
    return std::unique_ptr<TestDatabase>(new TestDatabase(backend, tmpl + "/test.db", tmpl));
  }
  std::string name = "clawtools_test_" + RandomSuffix();
  if (auto st = AdminExec("CREATE DATABASE " + name); !st) return std::unexpected(st.error());
  auto url = UrlForDatabase(name);
  if (!url) return std::unexpected(url.error());
  return std::unique_ptr<TestDatabase>(new TestDatabase(backend, *url, name));
}

TestDatabase::~TestDatabase() {
  if (backend_ == Backend::kSqlite) {
    std::error_code ec;
    std::filesystem::remove_all(cleanup_, ec);
  } else {
    (void)AdminExec("DROP DATABASE IF EXISTS " + cleanup_ + " WITH (FORCE)");
  }
}

void BackendTest::SetUp() {
  if (backend() == Backend::kPostgres && PgTestUrl().empty()) {
    GTEST_SKIP() << "CLAWTOOLS_TEST_PG_URL is not set; start a server with "
                    "`eval \"$(scripts/pg-test-server.sh env)\"` to run the PostgreSQL variant";
  }
  auto db = TestDatabase::Create(backend());
  ASSERT_TRUE(db) << db.error().log_message();
  db_ = std::move(*db);
  auto store = OpenStore(db_->url());
  ASSERT_TRUE(store) << store.error().log_message();
  store_ = std::move(*store);
}

void BackendTest::TearDown() {
  store_.reset();
  db_.reset();
}

std::unique_ptr<Store> BackendTest::OpenAnother(StoreOptions options) {
  auto store = OpenStore(db_->url(), options);
  EXPECT_TRUE(store) << store.error().log_message();
  return store ? std::move(*store) : nullptr;
}

std::string BackendParamName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::kSqlite ? "Sqlite" : "Postgres";
}

}  // namespace clawtools::store::testing
