// ContextFileRouter and MemoryRouter, on both backends.
#include <gtest/gtest.h>

#include <thread>

#include "store/agent_store.h"
#include "store/chunking.h"
#include "store/context_file_router.h"
#include "store/context_file_store.h"
#include "store/memory_router.h"
#include "store/memory_store.h"
#include "test_database.h"

namespace clawtools::store {
namespace {

using testing::BackendTest;
using testing::ContentOf;

CallContext Ctx(std::string agent, std::string user) {
  CallRequest req;
  req.agent_id = std::move(agent);
  req.user_id = std::move(user);
  return CallContext(req, "read_file", "/ws", CallContext::Clock::time_point::max(), {});
}

std::vector<std::pair<std::string, size_t>> Entries(
    const Expected<std::vector<VirtualEntry>>& listed) {
  EXPECT_TRUE(listed) << listed.error().log_message();
  std::vector<std::pair<std::string, size_t>> out;
  if (listed) {
    for (const auto& e : *listed) out.emplace_back(e.path, e.size);
  }
  return out;
}

using Listing = std::vector<std::pair<std::string, size_t>>;

class ContextFileRouterTest : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    agents_ = std::make_unique<AgentStore>(*store_);
    files_ = std::make_unique<ContextFileStore>(*store_);
    router_ = std::make_unique<ContextFileRouter>(
        *store_, std::map<std::string, AgentType>{{"cfg-predefined", AgentType::kPredefined},
                                                  {"overridden", AgentType::kPredefined}});
    ASSERT_TRUE(agents_->Put({"pre", "pre", AgentType::kPredefined}));
    ASSERT_TRUE(agents_->Put({"overridden", "overridden", AgentType::kOpen}));
  }
  void TearDown() override {
    router_.reset();
    BackendTest::TearDown();
  }

  std::string ReadOk(const CallContext& ctx, std::string_view path) {
    auto r = router_->Read(ctx, path);
    EXPECT_TRUE(r) << path << ": " << r.error().log_message();
    return r ? *r : "<error>";
  }
  ErrorCode ReadErr(const CallContext& ctx, std::string_view path) {
    auto r = router_->Read(ctx, path);
    EXPECT_FALSE(r) << path << " unexpectedly read: " << *r;
    return r ? ErrorCode::kInternal : r.error().code;
  }

  std::unique_ptr<AgentStore> agents_;
  std::unique_ptr<ContextFileStore> files_;
  std::unique_ptr<ContextFileRouter> router_;
};
CLAWTOOLS_INSTANTIATE_BACKENDS(ContextFileRouterTest);

TEST_P(ContextFileRouterTest, HandlesExactlyTheSevenRootFiles) {
  CallContext ctx = Ctx("a", "u");
  for (const char* f : {"SOUL.md", "IDENTITY.md", "AGENTS.md", "TOOLS.md", "HEARTBEAT.md",
                        "USER.md", "BOOTSTRAP.md"}) {
    EXPECT_TRUE(router_->Handles(ctx, f)) << f;
  }
  for (const char* f : {"soul.md", "Soul.md", "sub/SOUL.md", "SOUL.md.bak", "SOUL", "MEMORY.md",
                        "USER_PREDEFINED.md", "", "memory/USER.md"}) {
    EXPECT_FALSE(router_->Handles(ctx, f)) << f;
  }
}

TEST_P(ContextFileRouterTest, OpenAgentFilesArePerUserWithTemplateFallback) {
  ASSERT_TRUE(files_->PutAgentFile("a", "SOUL.md", "template soul"));
  CallContext u1 = Ctx("a", "u1"), u2 = Ctx("a", "u2");
  EXPECT_EQ(ReadOk(u1, "SOUL.md"), "template soul");

  ASSERT_TRUE(router_->Write(u1, "SOUL.md", "u1 soul"));
  EXPECT_EQ(ReadOk(u1, "SOUL.md"), "u1 soul");
  EXPECT_EQ(ReadOk(u2, "SOUL.md"), "template soul");
  EXPECT_EQ(ContentOf(files_->GetAgentFile("a", "SOUL.md")), "template soul");
  EXPECT_EQ(ContentOf(files_->GetUserFile("a", "u1", "SOUL.md")), "u1 soul");

  // Every one of the seven is per user on an open agent.
  ASSERT_TRUE(router_->Write(u1, "TOOLS.md", "tools"));
  EXPECT_TRUE(files_->GetUserFile("a", "u1", "TOOLS.md")->has_value());
  EXPECT_EQ(ReadErr(u2, "TOOLS.md"), ErrorCode::kNotFound);
}

TEST_P(ContextFileRouterTest, OpenAgentWithoutUserWritesTheTemplate) {
  ASSERT_TRUE(router_->Write(Ctx("a", ""), "IDENTITY.md", "who"));
  EXPECT_EQ(ContentOf(files_->GetAgentFile("a", "IDENTITY.md")), "who");
  EXPECT_EQ(ReadOk(Ctx("a", "anyone"), "IDENTITY.md"), "who");
  EXPECT_EQ(ReadOk(Ctx("a", ""), "IDENTITY.md"), "who");
}

TEST_P(ContextFileRouterTest, PredefinedAgentKeepsOnlyUserMdPerUser) {
  CallContext u1 = Ctx("pre", "u1"), u2 = Ctx("pre", "u2");
  ASSERT_TRUE(router_->Write(u1, "SOUL.md", "shared soul"));
  EXPECT_EQ(ContentOf(files_->GetAgentFile("pre", "SOUL.md")), "shared soul");
  EXPECT_FALSE(files_->GetUserFile("pre", "u1", "SOUL.md")->has_value());
  EXPECT_EQ(ReadOk(u2, "SOUL.md"), "shared soul");

  // A per-user copy of SOUL.md (written around the router) is ignored for predefined agents.
  ASSERT_TRUE(files_->PutUserFile("pre", "u2", "SOUL.md", "sneaky"));
  EXPECT_EQ(ReadOk(u2, "SOUL.md"), "shared soul");

  EXPECT_EQ(ReadErr(u1, "USER.md"), ErrorCode::kNotFound);
  ASSERT_TRUE(router_->Write(Ctx("pre", ""), "USER.md", "user template"));
  ASSERT_TRUE(router_->Write(u1, "USER.md", "about u1"));
  EXPECT_EQ(ReadOk(u1, "USER.md"), "about u1");
  EXPECT_EQ(ReadOk(u2, "USER.md"), "user template");
  EXPECT_EQ(ContentOf(files_->GetUserFile("pre", "u1", "USER.md")), "about u1");
  EXPECT_EQ(ContentOf(files_->GetAgentFile("pre", "USER.md")), "user template");
}

TEST_P(ContextFileRouterTest, AgentTypeComesFromStoreThenConfigThenOpen) {
  EXPECT_EQ(*router_->TypeOf("pre"), AgentType::kPredefined);
  EXPECT_EQ(*router_->TypeOf("cfg-predefined"), AgentType::kPredefined);
  EXPECT_EQ(*router_->TypeOf("overridden"), AgentType::kOpen);  // the store wins
  EXPECT_EQ(*router_->TypeOf("unknown"), AgentType::kOpen);

  ASSERT_TRUE(router_->Write(Ctx("cfg-predefined", "u1"), "SOUL.md", "cfg soul"));
  EXPECT_TRUE(files_->GetAgentFile("cfg-predefined", "SOUL.md")->has_value());
  ASSERT_TRUE(router_->Write(Ctx("overridden", "u1"), "SOUL.md", "mine"));
  EXPECT_TRUE(files_->GetUserFile("overridden", "u1", "SOUL.md")->has_value());
  EXPECT_FALSE(files_->GetAgentFile("overridden", "SOUL.md")->has_value());
}

TEST_P(ContextFileRouterTest, EmptyAgentIdMeansDefault) {
  ASSERT_TRUE(router_->Write(Ctx("", ""), "AGENTS.md", "default agents"));
  EXPECT_EQ(ContentOf(files_->GetAgentFile("default", "AGENTS.md")), "default agents");
  EXPECT_EQ(ReadOk(Ctx("default", "u"), "AGENTS.md"), "default agents");
}

TEST_P(ContextFileRouterTest, EmptyBootstrapDeletesItsRow) {
  CallContext u1 = Ctx("a", "u1");
  ASSERT_TRUE(router_->Write(u1, "BOOTSTRAP.md", "first run"));
  EXPECT_EQ(ReadOk(u1, "BOOTSTRAP.md"), "first run");
  ASSERT_TRUE(router_->Write(u1, "BOOTSTRAP.md", ""));
  EXPECT_FALSE(files_->GetUserFile("a", "u1", "BOOTSTRAP.md")->has_value());
  EXPECT_EQ(ReadErr(u1, "BOOTSTRAP.md"), ErrorCode::kNotFound);
  ASSERT_TRUE(router_->Write(u1, "BOOTSTRAP.md", ""));  // deleting nothing is fine

  // Predefined: BOOTSTRAP.md is agent-level, so that row goes.
  ASSERT_TRUE(router_->Write(Ctx("pre", "u1"), "BOOTSTRAP.md", "hello"));
  EXPECT_TRUE(files_->GetAgentFile("pre", "BOOTSTRAP.md")->has_value());
  ASSERT_TRUE(router_->Write(Ctx("pre", "u2"), "BOOTSTRAP.md", ""));
  EXPECT_FALSE(files_->GetAgentFile("pre", "BOOTSTRAP.md")->has_value());

  // Other files keep an empty write as empty content.
  ASSERT_TRUE(router_->Write(u1, "SOUL.md", ""));
  auto soul = files_->GetUserFile("a", "u1", "SOUL.md");
  ASSERT_TRUE(soul && *soul);
  EXPECT_EQ(ReadOk(u1, "SOUL.md"), "");
}

TEST_P(ContextFileRouterTest, ListShowsWhatAReadWouldReturn) {
  ASSERT_TRUE(files_->PutAgentFile("a", "SOUL.md", "12345"));
  ASSERT_TRUE(files_->PutAgentFile("a", "AGENTS.md", "1"));
  ASSERT_TRUE(files_->PutAgentFile("a", "NOTES.md", "not a context file"));
  ASSERT_TRUE(router_->Write(Ctx("a", "u1"), "SOUL.md", "12"));
  ASSERT_TRUE(router_->Write(Ctx("a", "u1"), "USER.md", "123"));
  EXPECT_EQ(Entries(router_->List(Ctx("a", "u1"), "")),
            (Listing{{"AGENTS.md", 1}, {"SOUL.md", 2}, {"USER.md", 3}}));
  EXPECT_EQ(Entries(router_->List(Ctx("a", "u2"), "")),
            (Listing{{"AGENTS.md", 1}, {"SOUL.md", 5}}));
  EXPECT_TRUE(Entries(router_->List(Ctx("a", "u1"), "memory")).empty());
}

TEST_P(ContextFileRouterTest, ConcurrentUsersSeeTheirOwnFiles) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      CallContext ctx = Ctx(t % 2 ? "a" : "pre", "user" + std::to_string(t));
      for (int i = 0; i < 15; ++i) {
        std::string content = ctx.user_id() + "#" + std::to_string(i);
        if (auto st = router_->Write(ctx, "USER.md", content); !st) {
          ADD_FAILURE() << st.error().log_message();
          continue;
        }
        auto got = router_->Read(ctx, "USER.md");
        if (!got || *got != content) ADD_FAILURE() << "wrong USER.md for " << ctx.user_id();
      }
    });
  }
  for (auto& t : threads) t.join();
}

class MemoryRouterTest : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    memory_ = std::make_unique<MemoryStore>(*store_);
    router_ = std::make_unique<MemoryRouter>(*memory_);
  }
  void TearDown() override {
    router_.reset();
    memory_.reset();
    BackendTest::TearDown();
  }
  std::string ReadOk(const CallContext& ctx, std::string_view path) {
    auto r = router_->Read(ctx, path);
    EXPECT_TRUE(r) << path << ": " << r.error().log_message();
    return r ? *r : "<error>";
  }

  std::unique_ptr<MemoryStore> memory_;
  std::unique_ptr<MemoryRouter> router_;
};
CLAWTOOLS_INSTANTIATE_BACKENDS(MemoryRouterTest);

TEST_P(MemoryRouterTest, HandlesMemoryFilesAtAnyDepth) {
  CallContext ctx = Ctx("a", "u");
  for (const char* f : {"MEMORY.md", "memory.md", "memory/a.md", "memory/2024/01/x.txt"}) {
    EXPECT_TRUE(router_->Handles(ctx, f)) << f;
  }
  for (const char* f : {"memory", "memory/", "Memory.md", "sub/MEMORY.md", "memoryx/a.md",
                        "MEMORY.md/x", "SOUL.md", ""}) {
    EXPECT_FALSE(router_->Handles(ctx, f)) << f;
  }
}

TEST_P(MemoryRouterTest, UserScopeFallsBackToGlobal) {
  CallContext global = Ctx("a", ""), u1 = Ctx("a", "u1"), u2 = Ctx("a", "u2");
  ASSERT_TRUE(router_->Write(global, "MEMORY.md", "shared facts"));
  EXPECT_EQ(ReadOk(u1, "MEMORY.md"), "shared facts");
  ASSERT_TRUE(router_->Write(u1, "MEMORY.md", "u1 facts"));
  EXPECT_EQ(ReadOk(u1, "MEMORY.md"), "u1 facts");
  EXPECT_EQ(ReadOk(u2, "MEMORY.md"), "shared facts");
  EXPECT_EQ(ReadOk(global, "MEMORY.md"), "shared facts");
  EXPECT_EQ(ContentOf(memory_->GetDocument("a", "", "MEMORY.md")), "shared facts");

  auto missing = router_->Read(u1, "memory/none.md");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  // Another agent sees none of it.
  EXPECT_FALSE(router_->Read(Ctx("b", "u1"), "MEMORY.md"));
  // "memory.md" and "MEMORY.md" are different documents.
  EXPECT_FALSE(router_->Read(u2, "memory.md"));
}

TEST_P(MemoryRouterTest, NestedPathsAndChunking) {
  CallContext u1 = Ctx("", "u1");
  std::string para(600, 'n');
  std::string content = para + "\n\n## Later\nmore text";
  ASSERT_TRUE(router_->Write(u1, "memory/2024/01/notes.md", content));
  EXPECT_EQ(ReadOk(u1, "memory/2024/01/notes.md"), content);
  auto doc = memory_->GetDocument("default", "u1", "memory/2024/01/notes.md");
  ASSERT_TRUE(doc && *doc);
  auto chunks = memory_->ListChunks((*doc)->id);
  ASSERT_TRUE(chunks);
  ASSERT_EQ(chunks->size(), 2u);
  EXPECT_EQ((*chunks)[0].text, para);
  EXPECT_EQ((*chunks)[0].start_line, 1);
  EXPECT_EQ((*chunks)[0].end_line, 1);
  EXPECT_EQ((*chunks)[1].text, "## Later\nmore text");
  EXPECT_EQ((*chunks)[1].start_line, 2);
  EXPECT_EQ((*chunks)[1].end_line, 4);

  ASSERT_TRUE(router_->Write(u1, "memory/2024/data.csv", "a,b\n1,2"));
  auto csv = memory_->GetDocument("default", "u1", "memory/2024/data.csv");
  ASSERT_TRUE(csv && *csv);
  EXPECT_TRUE(memory_->ListChunks((*csv)->id)->empty());
}

TEST_P(MemoryRouterTest, ListMergesScopesWithUserShadowingGlobal) {
  CallContext global = Ctx("a", ""), u1 = Ctx("a", "u1"), u2 = Ctx("a", "u2");
  ASSERT_TRUE(router_->Write(global, "MEMORY.md", "g"));
  ASSERT_TRUE(router_->Write(global, "memory/a.md", "gg"));
  ASSERT_TRUE(router_->Write(global, "memory/b.md", "ggg"));
  ASSERT_TRUE(router_->Write(u1, "memory/a.md", "uuuuu"));
  ASSERT_TRUE(router_->Write(u1, "memory/c/d.md", "uu"));
  ASSERT_TRUE(router_->Write(Ctx("other", ""), "memory/x.md", "x"));

  EXPECT_EQ(
      Entries(router_->List(u1, "")),
      (Listing{{"MEMORY.md", 1}, {"memory/a.md", 5}, {"memory/b.md", 3}, {"memory/c/d.md", 2}}));
  EXPECT_EQ(Entries(router_->List(u1, "memory")),
            (Listing{{"memory/a.md", 5}, {"memory/b.md", 3}, {"memory/c/d.md", 2}}));
  EXPECT_EQ(Entries(router_->List(u1, "memory/c")), (Listing{{"memory/c/d.md", 2}}));
  EXPECT_EQ(Entries(router_->List(u2, "")),
            (Listing{{"MEMORY.md", 1}, {"memory/a.md", 2}, {"memory/b.md", 3}}));
  EXPECT_TRUE(Entries(router_->List(u1, "mem")).empty());
  EXPECT_TRUE(Entries(router_->List(u1, "elsewhere")).empty());
}

TEST_P(MemoryRouterTest, InjectionLookingPathsAreStoredVerbatim) {
  CallContext u = Ctx("a'; DROP TABLE memory_documents; --", "u' OR '1'='1");
  std::string path = "memory/'); DELETE FROM memory_chunks; --.md";
  ASSERT_TRUE(router_->Write(u, path, "safe"));
  EXPECT_EQ(ReadOk(u, path), "safe");
  EXPECT_FALSE(router_->Read(Ctx("a", "u"), path));
  EXPECT_EQ(Entries(router_->List(u, "memory")), (Listing{{path, 4}}));
}

}  // namespace
}  // namespace clawtools::store
