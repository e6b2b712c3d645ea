// AgentStore, ContextFileStore and MemoryStore, on both backends.
#include <gtest/gtest.h>

#include <mutex>
#include <thread>

#include "store/agent_store.h"
#include "store/chunking.h"
#include "store/context_file_store.h"
#include "store/memory_store.h"
#include "test_database.h"

namespace clawtools::store {
namespace {

using testing::BackendTest;
using testing::ContentOf;

class RepositoryTest : public BackendTest {
 protected:
  int64_t Count(const std::string& sql) {
    auto rows = store_->Query(sql);
    EXPECT_TRUE(rows) << rows.error().log_message();
    return rows ? rows->at(0).Int(0) : -1;
  }
};
CLAWTOOLS_INSTANTIATE_BACKENDS(RepositoryTest);

TEST_P(RepositoryTest, AgentsCrud) {
  AgentStore agents(*store_);
  ASSERT_TRUE(agents.Put({"b", "bee", AgentType::kPredefined}));
  ASSERT_TRUE(agents.Put({"a", "", AgentType::kOpen}));
  auto a = agents.Get("a");
  ASSERT_TRUE(a);
  ASSERT_TRUE(a->has_value());
  EXPECT_EQ((*a)->agent_key, "a");  // defaults to the id
  EXPECT_EQ((*a)->type, AgentType::kOpen);
  EXPECT_GT((*a)->created_at, 0);

  ASSERT_TRUE(agents.Put({"a", "alpha", AgentType::kPredefined}));
  auto updated = agents.Get("a");
  ASSERT_TRUE(updated && *updated);
  EXPECT_EQ((*updated)->agent_key, "alpha");
  EXPECT_EQ((*updated)->type, AgentType::kPredefined);
  EXPECT_EQ((*updated)->created_at, (*a)->created_at);
  EXPECT_EQ((*updated)->tools_config, "");

  const std::string policy = R"({"deny":["group:runtime"],"alsoAllow":["exec's \"quote\""]})";
  ASSERT_TRUE(agents.Put({"a", "alpha", AgentType::kPredefined, policy}));
  auto with_policy = agents.Get("a");
  ASSERT_TRUE(with_policy && *with_policy);
  EXPECT_EQ((*with_policy)->tools_config, policy);
  EXPECT_GE((*with_policy)->updated_at, (*with_policy)->created_at);

  auto list = agents.List();
  ASSERT_TRUE(list);
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].id, "a");
  EXPECT_EQ((*list)[1].id, "b");

  auto missing = agents.Get("nope");
  ASSERT_TRUE(missing);
  EXPECT_FALSE(missing->has_value());
  EXPECT_EQ(agents.Put({"", "x", AgentType::kOpen}).error().code, ErrorCode::kInvalidArgument);
  // agent_key is unique.
  EXPECT_EQ(agents.Put({"c", "alpha", AgentType::kOpen}).error().code, ErrorCode::kAlreadyExists);
}

TEST_P(RepositoryTest, RemovingAnAgentRemovesItsFilesAndMemory) {
  AgentStore agents(*store_);
  ContextFileStore files(*store_);
  MemoryStore memory(*store_);
  ASSERT_TRUE(agents.Put({"a", "a", AgentType::kOpen}));
  ASSERT_TRUE(files.PutAgentFile("a", "SOUL.md", "soul"));
  ASSERT_TRUE(files.PutUserFile("a", "u", "USER.md", "me"));
  ASSERT_TRUE(memory.PutDocument("a", "u", "MEMORY.md", "remember"));
  ASSERT_TRUE(files.PutAgentFile("other", "SOUL.md", "other soul"));

  ASSERT_TRUE(agents.Remove("a"));
  EXPECT_EQ(Count("SELECT COUNT(*) FROM agent_context_files"), 1);
  EXPECT_EQ(Count("SELECT COUNT(*) FROM user_context_files"), 0);
  EXPECT_EQ(Count("SELECT COUNT(*) FROM memory_documents"), 0);
  EXPECT_EQ(Count("SELECT COUNT(*) FROM memory_chunks"), 0);
  EXPECT_EQ(agents.Remove("a").error().code, ErrorCode::kNotFound);
}

TEST_P(RepositoryTest, AgentContextFilesCrud) {
  ContextFileStore files(*store_);
  auto none = files.GetAgentFile("a", "SOUL.md");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());

  ASSERT_TRUE(files.PutAgentFile("a", "SOUL.md", "v1"));
  auto v1 = files.GetAgentFile("a", "SOUL.md");
  ASSERT_TRUE(v1 && *v1);
  ASSERT_TRUE(files.PutAgentFile("a", "SOUL.md", "v2"));
  ASSERT_TRUE(files.PutAgentFile("a", "AGENTS.md", ""));
  auto v2 = files.GetAgentFile("a", "SOUL.md");
  ASSERT_TRUE(v2 && *v2);
  EXPECT_EQ((*v2)->content, "v2");
  EXPECT_GE((*v2)->updated_at, (*v1)->updated_at);

  auto list = files.ListAgentFiles("a");
  ASSERT_TRUE(list);
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].file_name, "AGENTS.md");
  EXPECT_EQ((*list)[0].content, "");
  EXPECT_EQ((*list)[1].file_name, "SOUL.md");
  EXPECT_TRUE(files.ListAgentFiles("b")->empty());

  EXPECT_TRUE(*files.DeleteAgentFile("a", "SOUL.md"));
  EXPECT_FALSE(*files.DeleteAgentFile("a", "SOUL.md"));
  EXPECT_FALSE(files.GetAgentFile("a", "SOUL.md")->has_value());
}

TEST_P(RepositoryTest, UserContextFilesAreScopedByAgentAndUser) {
  ContextFileStore files(*store_);
  ASSERT_TRUE(files.PutUserFile("a", "u1", "USER.md", "one"));
  ASSERT_TRUE(files.PutUserFile("a", "u2", "USER.md", "two"));
  ASSERT_TRUE(files.PutUserFile("b", "u1", "USER.md", "other agent"));
  ASSERT_TRUE(files.PutUserFile("a", "u1", "USER.md", "one, updated"));
  EXPECT_EQ(ContentOf(files.GetUserFile("a", "u1", "USER.md")), "one, updated");
  EXPECT_EQ(ContentOf(files.GetUserFile("a", "u2", "USER.md")), "two");
  EXPECT_EQ(ContentOf(files.GetUserFile("b", "u1", "USER.md")), "other agent");
  EXPECT_FALSE(files.GetUserFile("a", "u3", "USER.md")->has_value());
  EXPECT_FALSE(files.GetAgentFile("a", "USER.md")->has_value());
  EXPECT_EQ(files.ListUserFiles("a", "u1")->size(), 1u);
  EXPECT_TRUE(*files.DeleteUserFile("a", "u1", "USER.md"));
  EXPECT_FALSE(files.GetUserFile("a", "u1", "USER.md")->has_value());
  EXPECT_TRUE(files.GetUserFile("a", "u2", "USER.md")->has_value());
}

TEST_P(RepositoryTest, NamesAndContentAreStoredVerbatim) {
  ContextFileStore files(*store_);
  const std::string agent = "a'; DROP TABLE agents; --";
  const std::string user = "u\" OR 1=1 --";
  const std::string name = "SOUL.md'); DELETE FROM user_context_files; --";
  const std::string content = "%s $1 ?1 \\x00 ' \" ; -- 日本語\r\n";
  const std::string big(1 << 20, 'x');
  ASSERT_TRUE(files.PutUserFile(agent, user, name, content));
  ASSERT_TRUE(files.PutUserFile(agent, user, "big", big));
  ASSERT_TRUE(files.PutAgentFile(agent, "soul.md", "lower"));
  ASSERT_TRUE(files.PutAgentFile(agent, "SOUL.md", "upper"));
  EXPECT_EQ(ContentOf(files.GetUserFile(agent, user, name)), content);
  EXPECT_EQ(ContentOf(files.GetUserFile(agent, user, "big")), big);
  EXPECT_EQ(ContentOf(files.GetAgentFile(agent, "soul.md")), "lower");
  EXPECT_EQ(ContentOf(files.GetAgentFile(agent, "SOUL.md")), "upper");
  EXPECT_EQ(Count("SELECT COUNT(*) FROM agents"), 0);  // the table still exists
}

TEST_P(RepositoryTest, MarkdownDocumentsAreChunkedAndQueued) {
  std::vector<std::pair<MemoryDocument, std::vector<MemoryChunk>>> indexed;
  std::mutex mu;
  MemoryStore memory(*store_, [&](const MemoryDocument& d, const std::vector<MemoryChunk>& c) {
    std::lock_guard lock(mu);
    indexed.emplace_back(d, c);
  });
  std::string para(700, 'a');
  std::string content = "# Title\n" + para + "\n\nsecond paragraph\nmore";
  auto doc = memory.PutDocument("agent", "u1", "memory/notes.md", content);
  ASSERT_TRUE(doc) << doc.error().log_message();
  EXPECT_GT(doc->id, 0);
  EXPECT_EQ(doc->hash, ContentHash(content));

  auto chunks = memory.ListChunks(doc->id);
  ASSERT_TRUE(chunks);
  auto expected = ChunkText(content);
  ASSERT_EQ(chunks->size(), expected.size());
  ASSERT_EQ(expected.size(), 2u);
  for (size_t i = 0; i < expected.size(); ++i) {
    const MemoryChunk& c = (*chunks)[i];
    EXPECT_EQ(c.index, static_cast<int>(i));
    EXPECT_EQ(c.start_line, expected[i].start_line);
    EXPECT_EQ(c.end_line, expected[i].end_line);
    EXPECT_EQ(c.text, expected[i].text);
    EXPECT_EQ(c.hash, ContentHash(expected[i].text));
    EXPECT_TRUE(c.pending_embedding);
    EXPECT_TRUE(c.embedding.empty());
  }
  ASSERT_EQ(indexed.size(), 1u);
  EXPECT_EQ(indexed[0].first.path, "memory/notes.md");
  EXPECT_EQ(indexed[0].second.size(), 2u);
  EXPECT_EQ(indexed[0].second[0].id, (*chunks)[0].id);

  auto pending = memory.PendingChunks(10);
  ASSERT_TRUE(pending);
  EXPECT_EQ(pending->size(), 2u);

  std::vector<float> vec = {0.25f, -1.5f, 3.0e-8f, 42.0f};
  ASSERT_TRUE(memory.SetEmbedding((*chunks)[0].id, vec));
  EXPECT_EQ(memory.SetEmbedding(999999, vec).error().code, ErrorCode::kNotFound);
  pending = memory.PendingChunks(10);
  ASSERT_TRUE(pending);
  ASSERT_EQ(pending->size(), 1u);
  EXPECT_EQ(pending->front().id, (*chunks)[1].id);
  auto after = memory.ListChunks(doc->id);
  EXPECT_FALSE((*after)[0].pending_embedding);
  EXPECT_EQ((*after)[0].embedding, vec);

  // An identical rewrite keeps chunks and embeddings; a change re-chunks and re-queues.
  ASSERT_TRUE(memory.PutDocument("agent", "u1", "memory/notes.md", content));
  EXPECT_EQ(indexed.size(), 1u);
  EXPECT_EQ((*memory.ListChunks(doc->id))[0].embedding, vec);
  auto changed = memory.PutDocument("agent", "u1", "memory/notes.md", "just one line");
  ASSERT_TRUE(changed);
  EXPECT_EQ(changed->id, doc->id);
  ASSERT_EQ(indexed.size(), 2u);
  auto rechunked = memory.ListChunks(doc->id);
  ASSERT_EQ(rechunked->size(), 1u);
  EXPECT_EQ(rechunked->front().text, "just one line");
  EXPECT_TRUE(rechunked->front().pending_embedding);
}

TEST_P(RepositoryTest, NonMarkdownDocumentsAreNotChunked) {
  int calls = 0;
  MemoryStore memory(*store_,
                     [&](const MemoryDocument&, const std::vector<MemoryChunk>&) { ++calls; });
  auto doc = memory.PutDocument("agent", "", "memory/data.json", "{\"a\": 1}");
  ASSERT_TRUE(doc);
  EXPECT_TRUE(memory.ListChunks(doc->id)->empty());
  EXPECT_EQ(calls, 0);
}

TEST_P(RepositoryTest, MemoryScopesAreSeparateAndDeletesCascade) {
  MemoryStore memory(*store_);
  ASSERT_TRUE(memory.PutDocument("agent", "", "MEMORY.md", "global"));
  ASSERT_TRUE(memory.PutDocument("agent", "u1", "MEMORY.md", "mine"));
  ASSERT_TRUE(memory.PutDocument("agent", "u1", "memory/b.md", "b"));
  ASSERT_TRUE(memory.PutDocument("agent", "u1", "memory/a.md", "a"));
  EXPECT_EQ(ContentOf(memory.GetDocument("agent", "", "MEMORY.md")), "global");
  EXPECT_EQ(ContentOf(memory.GetDocument("agent", "u1", "MEMORY.md")), "mine");
  EXPECT_FALSE(memory.GetDocument("agent", "u2", "MEMORY.md")->has_value());
  EXPECT_FALSE(memory.GetDocument("other", "", "MEMORY.md")->has_value());

  auto list = memory.ListDocuments("agent", "u1");
  ASSERT_TRUE(list);
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ((*list)[0].path, "MEMORY.md");
  EXPECT_EQ((*list)[1].path, "memory/a.md");
  EXPECT_EQ((*list)[2].path, "memory/b.md");
  EXPECT_EQ(memory.ListDocuments("agent", "")->size(), 1u);

  EXPECT_EQ(Count("SELECT COUNT(*) FROM memory_chunks"), 4);
  EXPECT_TRUE(*memory.DeleteDocument("agent", "u1", "MEMORY.md"));
  EXPECT_FALSE(*memory.DeleteDocument("agent", "u1", "MEMORY.md"));
  EXPECT_EQ(Count("SELECT COUNT(*) FROM memory_chunks"), 3);
  EXPECT_EQ(ContentOf(memory.GetDocument("agent", "", "MEMORY.md")), "global");
}

TEST_P(RepositoryTest, ConcurrentWritersAndReaders) {
  ContextFileStore files(*store_);
  MemoryStore memory(*store_);
  constexpr int kThreads = 8;
  constexpr int kOps = 20;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::string user = "user" + std::to_string(t);
      for (int i = 0; i < kOps; ++i) {
        std::string content = user + " v" + std::to_string(i);
        if (auto st = files.PutUserFile("agent", user, "USER.md", content); !st) {
          ADD_FAILURE() << st.error().log_message();
        }
        auto got = files.GetUserFile("agent", user, "USER.md");
        if (!got || !*got || (*got)->content != content) ADD_FAILURE() << "lost write " << user;
        auto doc = memory.PutDocument("agent", user, "memory/log.md",
                                      std::string(600, 'z') + "\n\n" + content);
        if (!doc) ADD_FAILURE() << doc.error().log_message();
        if (auto g = files.GetAgentFile("agent", "SOUL.md"); !g) {
          ADD_FAILURE() << g.error().log_message();
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(Count("SELECT COUNT(*) FROM user_context_files"), kThreads);
  EXPECT_EQ(Count("SELECT COUNT(*) FROM memory_documents"), kThreads);
  EXPECT_EQ(Count("SELECT COUNT(*) FROM memory_chunks"), kThreads * 2);
}

}  // namespace
}  // namespace clawtools::store
