#include "store/sql.h"

#include <gtest/gtest.h>

#include <string>

#include "store/chunking.h"
#include "store/store.h"

namespace clawtools::store {
namespace {

TEST(TranslatePlaceholders, RewritesDollarNumbers) {
  EXPECT_EQ(TranslatePlaceholdersForSqlite("SELECT a FROM t WHERE b = $1 AND c = $12"),
            "SELECT a FROM t WHERE b = ?1 AND c = ?12");
}

TEST(TranslatePlaceholders, LeavesLiteralsIdentifiersAndCommentsAlone) {
  EXPECT_EQ(TranslatePlaceholdersForSqlite("SELECT '$1', 'it''s $2', \"$3\" -- $4\n, $5 /* $6 */"),
            "SELECT '$1', 'it''s $2', \"$3\" -- $4\n, ?5 /* $6 */");
  EXPECT_EQ(TranslatePlaceholdersForSqlite("SELECT $a, $"), "SELECT $a, $");
}

TEST(Row, ConvertsBetweenIntegerAndText) {
  Row row({int64_t{42}, std::string("17"), std::monostate{}, Blob{"x"}});
  EXPECT_EQ(row.Text(0), "42");
  EXPECT_EQ(row.Int(1), 17);
  EXPECT_TRUE(row.IsNull(2));
  EXPECT_EQ(row.Text(2), "");
  EXPECT_EQ(row.BlobBytes(3), "x");
  EXPECT_TRUE(row.IsNull(99));
}

TEST(OpenStore, RejectsBadUrls) {
  for (const char* url :
       {"", "mysql://localhost/db", "sqlite:", "postgresql://[::1/db", "host=/tmp dbname"}) {
    auto store = OpenStore(url);
    ASSERT_FALSE(store) << url;
    EXPECT_EQ(store.error().code, ErrorCode::kInvalidArgument)
        << url << ": " << store.error().log_message();
  }
}

TEST(OpenStore, UnreachablePostgresIsUnavailableWithAClearMessage) {
  auto store = OpenStore("postgresql://clawtools@127.0.0.1:1/nodb?connect_timeout=3");
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(store.error().log_message().find("cannot connect to PostgreSQL"), std::string::npos)
      << store.error().log_message();
  // The model-facing text must not reveal where the database lives.
  EXPECT_EQ(store.error().for_model.find("127.0.0.1"), std::string::npos);
}

TEST(OpenStore, UnopenableSqlitePathIsUnavailable) {
  auto store = OpenStore("/nonexistent-clawtools-dir/sub/db.sqlite");
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(store.error().for_model.find("nonexistent"), std::string::npos);
}

TEST(OpenStore, InMemorySqliteWorks) {
  auto store = OpenStore(":memory:");
  ASSERT_TRUE(store) << store.error().log_message();
  EXPECT_EQ((*store)->backend(), Backend::kSqlite);
  auto rows = (*store)->Query("SELECT COUNT(*) FROM agents");
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->at(0).Int(0), 0);
}

TEST(ChunkText, EmptyTextHasNoChunks) {
  EXPECT_TRUE(ChunkText("").empty());
}

TEST(ChunkText, ShortTextIsOneChunk) {
  EXPECT_EQ(ChunkText("a\nb"), (std::vector<TextChunk>{{1, 2, "a\nb"}}));
}

TEST(ChunkText, BlankLineEndsAChunkOnceHalfFull) {
  // 12 bytes >= 20/2: the blank line flushes and is skipped; the next chunk's start line is
  // the blank line's, as in GoClaw.
  EXPECT_EQ(ChunkText("0123456789AB\n\nnext", 20),
            (std::vector<TextChunk>{{1, 1, "0123456789AB"}, {2, 3, "next"}}));
}

TEST(ChunkText, BlankLineInASmallChunkIsKept) {
  EXPECT_EQ(ChunkText("ab\n\ncd", 20), (std::vector<TextChunk>{{1, 3, "ab\n\ncd"}}));
}

TEST(ChunkText, FullBufferEndsAChunkAfterTheLine) {
  EXPECT_EQ(ChunkText("0123456789\n0123456789\nxyz", 20),
            (std::vector<TextChunk>{{1, 2, "0123456789\n0123456789"}, {3, 3, "xyz"}}));
}

TEST(ChunkText, LongLineIsNeverSplit) {
  std::string line(50, 'x');
  EXPECT_EQ(ChunkText(line, 20), (std::vector<TextChunk>{{1, 1, line}}));
}

TEST(ChunkText, ZeroMeansDefaultOf1000) {
  std::string para(600, 'p');
  auto chunks = ChunkText(para + "\n\n" + para, 0);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0], (TextChunk{1, 1, para}));
  EXPECT_EQ(chunks[1], (TextChunk{2, 3, para}));
}

TEST(ChunkText, LeadingBlankLinesCountTowardsTheFirstChunk) {
  EXPECT_EQ(ChunkText("\n\n  hello  \n"), (std::vector<TextChunk>{{1, 4, "hello"}}));
}

TEST(ContentHash, IsTheFirst16BytesOfSha256InLowercaseHex) {
  EXPECT_EQ(ContentHash(""), "e3b0c44298fc1c149afbf4c8996fb924");
  EXPECT_EQ(ContentHash("abc"), "ba7816bf8f01cfea414140de5dae2223");
}

}  // namespace
}  // namespace clawtools::store
