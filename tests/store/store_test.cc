// The generic layer and migrations, on both backends.
#include "store/store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "store/migrations.h"
#include "test_database.h"

namespace clawtools::store {
namespace {

using testing::BackendTest;

class StoreTest : public BackendTest {
 protected:
  void CreateScratchTable() {
    std::string blob = backend() == Backend::kPostgres ? "BYTEA" : "BLOB";
    auto r = store_->Exec(
        "CREATE TABLE scratch (k TEXT PRIMARY KEY, i BIGINT, d DOUBLE PRECISION, "
        "s TEXT, b " +
        blob + ")");
    ASSERT_TRUE(r) << r.error().log_message();
  }
  int64_t Count(std::string_view table) {
    auto rows = store_->Query("SELECT COUNT(*) FROM " + std::string(table));
    EXPECT_TRUE(rows) << rows.error().log_message();
    return rows ? rows->at(0).Int(0) : -1;
  }
};
CLAWTOOLS_INSTANTIATE_BACKENDS(StoreTest);

TEST_P(StoreTest, FreshDatabaseGetsEveryMigration) {
  EXPECT_EQ(store_->backend(), backend());
  EXPECT_EQ(store_->schema_version(), AllMigrations().back().version);
  EXPECT_EQ(Count("schema_migrations"), static_cast<int64_t>(AllMigrations().size()));
  for (const char* table : {"agents", "agent_context_files", "user_context_files",
                            "memory_documents", "memory_chunks"}) {
    EXPECT_EQ(Count(table), 0) << table;
  }
}

TEST_P(StoreTest, ReopeningIsIdempotentAndKeepsData) {
  ASSERT_TRUE(
      store_->Exec("INSERT INTO agents (id, agent_key, type, created_at) "
                   "VALUES ('a', 'a', 'open', 1)"));
  auto again = OpenAnother();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->schema_version(), store_->schema_version());
  EXPECT_EQ(Count("schema_migrations"), static_cast<int64_t>(AllMigrations().size()));
  EXPECT_EQ(Count("agents"), 1);
}

TEST_P(StoreTest, RefusesADatabaseFromANewerBinary) {
  ASSERT_TRUE(store_->Exec(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)"));
  auto again = OpenStore(url());
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(again.error().log_message().find("9999"), std::string::npos);
}

TEST_P(StoreTest, ConcurrentOpenersAllSucceedAndMigrateOnce) {
  // A second fresh database so the openers really race on an empty schema.
  auto fresh = testing::TestDatabase::Create(backend());
  ASSERT_TRUE(fresh);
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      auto s = OpenStore((*fresh)->url());
      if (s) {
        ++ok;
      } else {
        ADD_FAILURE() << s.error().log_message();
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok, 8);
  auto s = OpenStore((*fresh)->url());
  ASSERT_TRUE(s);
  auto rows = (*s)->Query("SELECT COUNT(*) FROM schema_migrations");
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->at(0).Int(0), static_cast<int64_t>(AllMigrations().size()));
}

TEST_P(StoreTest, ValuesRoundTripExactly) {
  CreateScratchTable();
  std::string binary("\x00\x01\xff\xfe\x00z", 6);
  std::string unicode = "héllo wörld ✓ 日本語";
  ASSERT_TRUE(
      store_->Exec("INSERT INTO scratch (k, i, d, s, b) VALUES ($1, $2, $3, $4, $5)",
                   {std::string("full"), int64_t{-9007199254740993}, 0.1, unicode, Blob{binary}}));
  ASSERT_TRUE(store_->Exec(
      "INSERT INTO scratch (k, i, d, s, b) VALUES ($1, $2, $3, $4, $5)",
      {std::string("empty"), std::monostate{}, std::monostate{}, std::string(), Blob{}}));
  auto rows = store_->Query("SELECT i, d, s, b FROM scratch WHERE k = $1", {std::string("full")});
  ASSERT_TRUE(rows) << rows.error().log_message();
  ASSERT_EQ(rows->size(), 1u);
  const Row& r = rows->front();
  EXPECT_EQ(r.Int(0), -9007199254740993);
  EXPECT_DOUBLE_EQ(r.Real(1), 0.1);
  EXPECT_EQ(r.Text(2), unicode);
  EXPECT_EQ(r.at(3), SqlValue(Blob{binary}));

  rows = store_->Query("SELECT i, d, s, b FROM scratch WHERE k = $1", {std::string("empty")});
  ASSERT_TRUE(rows);
  const Row& e = rows->front();
  EXPECT_TRUE(e.IsNull(0));
  EXPECT_TRUE(e.IsNull(1));
  EXPECT_FALSE(e.IsNull(2));
  EXPECT_EQ(e.Text(2), "");
  EXPECT_EQ(e.at(3), SqlValue(Blob{}));
}

TEST_P(StoreTest, PlaceholdersMayBeUsedOutOfOrderAndTwice) {
  CreateScratchTable();
  ASSERT_TRUE(store_->Exec("INSERT INTO scratch (k, s, i) VALUES ($2, $1, $3)",
                           {std::string("value"), std::string("key"), int64_t{7}}));
  auto rows = store_->Query("SELECT k FROM scratch WHERE s = $1 AND (k = $2 OR i = $3) AND k = $2",
                            {std::string("value"), std::string("key"), int64_t{7}});
  ASSERT_TRUE(rows) << rows.error().log_message();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(rows->front().Text(0), "key");
}

TEST_P(StoreTest, InjectionLookingTextIsJustData) {
  CreateScratchTable();
  std::string evil = "x'); DROP TABLE scratch; --";
  ASSERT_TRUE(store_->Exec("INSERT INTO scratch (k, s) VALUES ($1, $1)", {evil}));
  auto rows = store_->Query("SELECT s FROM scratch WHERE k = $1", {evil});
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(rows->front().Text(0), evil);
}

TEST_P(StoreTest, NulInTextIsRejectedOnBothBackends) {
  CreateScratchTable();
  auto r = store_->Exec("INSERT INTO scratch (k) VALUES ($1)", {std::string("a\0b", 3)});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(Count("scratch"), 0);
}

TEST_P(StoreTest, ErrorsAreMappedAndDoNotLeakSqlToTheModel) {
  CreateScratchTable();
  ASSERT_TRUE(store_->Exec("INSERT INTO scratch (k) VALUES ('dup')"));
  auto dup = store_->Exec("INSERT INTO scratch (k) VALUES ('dup')");
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, ErrorCode::kAlreadyExists);
  EXPECT_EQ(dup.error().for_model.find("scratch"), std::string::npos);
  EXPECT_NE(dup.error().log_message().find("scratch"), std::string::npos);

  auto bad = store_->Query("SELEKT nonsense");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kInternal);

  auto check = store_->Exec(
      "INSERT INTO agents (id, agent_key, type, created_at) "
      "VALUES ('a', 'a', 'bogus', 0)");
  ASSERT_FALSE(check);
  EXPECT_EQ(check.error().code, ErrorCode::kInvalidArgument);
}

TEST_P(StoreTest, TransactionCommitsAndRollsBack) {
  CreateScratchTable();
  {
    auto tx = store_->Begin();
    ASSERT_TRUE(tx);
    ASSERT_TRUE(tx->Exec("INSERT INTO scratch (k) VALUES ('kept')"));
    ASSERT_TRUE(tx->Commit());
    EXPECT_FALSE(tx->Exec("INSERT INTO scratch (k) VALUES ('late')"));
  }
  {
    auto tx = store_->Begin();
    ASSERT_TRUE(tx);
    ASSERT_TRUE(tx->Exec("INSERT INTO scratch (k) VALUES ('dropped')"));
    // Destroyed without Commit.
  }
  {
    auto tx = store_->Begin();
    ASSERT_TRUE(tx);
    ASSERT_TRUE(tx->Exec("INSERT INTO scratch (k) VALUES ('explicit')"));
    ASSERT_TRUE(tx->Rollback());
  }
  auto rows = store_->Query("SELECT k FROM scratch");
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(rows->front().Text(0), "kept");
}

TEST_P(StoreTest, InTransactionRollsBackWhenTheBodyFails) {
  CreateScratchTable();
  Status st = store_->InTransaction([](Transaction& tx) -> Status {
    if (auto r = tx.Exec("INSERT INTO scratch (k) VALUES ('first')"); !r) {
      return std::unexpected(r.error());
    }
    // The second insert violates the primary key: the first must vanish with it.
    if (auto r = tx.Exec("INSERT INTO scratch (k) VALUES ('first')"); !r) {
      return std::unexpected(r.error());
    }
    return {};
  });
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, ErrorCode::kAlreadyExists);
  EXPECT_EQ(Count("scratch"), 0);

  auto value = store_->InTransaction([](Transaction& tx) -> Expected<int> {
    if (auto r = tx.Exec("INSERT INTO scratch (k) VALUES ('x')"); !r) {
      return std::unexpected(r.error());
    }
    return Fail(ErrorCode::kInvalidArgument, "changed my mind");
  });
  ASSERT_FALSE(value);
  EXPECT_EQ(Count("scratch"), 0);

  value = store_->InTransaction([](Transaction& tx) -> Expected<int> {
    if (auto r = tx.Exec("INSERT INTO scratch (k) VALUES ('y')"); !r) {
      return std::unexpected(r.error());
    }
    return 5;
  });
  ASSERT_TRUE(value);
  EXPECT_EQ(*value, 5);
  EXPECT_EQ(Count("scratch"), 1);
}

TEST_P(StoreTest, ConnectionsAreReusableAfterAFailedTransaction) {
  auto small = OpenAnother({.max_connections = 1});
  ASSERT_TRUE(small);
  for (int i = 0; i < 3; ++i) {
    Status st = small->InTransaction([](Transaction& tx) -> Status {
      auto r = tx.Query("SELECT * FROM no_such_table");
      if (!r) return std::unexpected(r.error());
      return {};
    });
    EXPECT_FALSE(st);
    auto ok = small->Query("SELECT COUNT(*) FROM agents");
    ASSERT_TRUE(ok) << ok.error().log_message();
  }
}

TEST_P(StoreTest, ExhaustedPoolFailsInsteadOfDeadlocking) {
  auto small = OpenAnother({.max_connections = 1, .busy_timeout = std::chrono::milliseconds(200)});
  ASSERT_TRUE(small);
  auto tx = small->Begin();
  ASSERT_TRUE(tx);
  auto r = small->Query("SELECT 1");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kUnavailable);
}

TEST_P(StoreTest, ConcurrentTransactionsLoseNoUpdates) {
  CreateScratchTable();
  ASSERT_TRUE(store_->Exec("INSERT INTO scratch (k, i) VALUES ('counter', 0)"));
  constexpr int kThreads = 8;
  constexpr int kPerThread = 25;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        Status st = store_->InTransaction([&](Transaction& tx) -> Status {
          auto a = tx.Exec("UPDATE scratch SET i = i + 1 WHERE k = 'counter'");
          if (!a) return std::unexpected(a.error());
          auto b = tx.Exec("INSERT INTO scratch (k, i) VALUES ($1, $2)",
                           {"t" + std::to_string(t) + "-" + std::to_string(i), int64_t{i}});
          if (!b) return std::unexpected(b.error());
          return {};
        });
        if (!st) {
          ++failures;
          ADD_FAILURE() << st.error().log_message();
        }
        auto read = store_->Query("SELECT i FROM scratch WHERE k = 'counter'");
        if (!read) ADD_FAILURE() << read.error().log_message();
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures, 0);
  auto rows = store_->Query("SELECT i FROM scratch WHERE k = 'counter'");
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->at(0).Int(0), kThreads * kPerThread);
  EXPECT_EQ(Count("scratch"), kThreads * kPerThread + 1);
}

}  // namespace
}  // namespace clawtools::store
