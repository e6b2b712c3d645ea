#include "core/registry.h"

#include <gtest/gtest.h>

#include <thread>

#include "core/rate_limit_filter.h"
#include "test_tools.h"

namespace clawtools {
namespace {

using testing::LambdaTool;
using testing::ObjectSchema;

std::shared_ptr<LambdaTool> Echo(std::string name = "echo") {
  return std::make_shared<LambdaTool>(
      name, ObjectSchema({{"text", {{"type", "string"}}}}, {"text"}),
      [](const CallContext&, const Json& a) { return Result::Text(a["text"].get<std::string>()); });
}

CallRequest Req(std::string tool, Json args) {
  CallRequest r;
  r.tool = std::move(tool);
  r.args = std::move(args);
  return r;
}

TEST(Registry, RegisterRejectsDuplicatesAndAliasClashes) {
  Registry reg;
  ASSERT_TRUE(reg.Register(Echo()));
  EXPECT_FALSE(reg.Register(Echo()));
  ASSERT_TRUE(reg.RegisterAlias("say", "echo"));
  EXPECT_FALSE(reg.RegisterAlias("echo", "echo"));
  EXPECT_FALSE(reg.RegisterAlias("x", "missing"));
  EXPECT_FALSE(reg.Register(Echo("say")));
  EXPECT_EQ(reg.Canonical("say"), "echo");
  EXPECT_EQ(reg.Get("say").get(), reg.Get("echo").get());
}

TEST(Registry, ListIsSortedAndGenerationMoves) {
  Registry reg;
  auto g0 = reg.generation();
  ASSERT_TRUE(reg.Register(Echo("b")));
  ASSERT_TRUE(reg.Register(Echo("a")));
  EXPECT_EQ(reg.List(), (std::vector<std::string>{"a", "b"}));
  EXPECT_GT(reg.generation(), g0);
  EXPECT_TRUE(reg.Unregister("a"));
  EXPECT_FALSE(reg.Unregister("a"));
  EXPECT_EQ(reg.List(), (std::vector<std::string>{"b"}));
}

TEST(Registry, ExecutesThroughAlias) {
  Registry reg;
  ASSERT_TRUE(reg.Register(Echo()));
  ASSERT_TRUE(reg.RegisterAlias("say", "echo"));
  auto out = reg.Execute(Req("say", {{"text", "hi"}}));
  EXPECT_FALSE(out.result.is_error);
  EXPECT_EQ(out.result.for_llm, "hi");
  EXPECT_EQ(out.tool, "echo");
}

TEST(Registry, UnknownToolIsAnErrorResult) {
  Registry reg;
  auto out = reg.Execute(Req("nope", Json::object()));
  EXPECT_TRUE(out.result.is_error);
  EXPECT_EQ(out.result.for_llm, "unknown tool: nope");
}

TEST(Registry, ValidatesArgumentsNamingEachField) {
  Registry reg;
  auto tool = std::make_shared<LambdaTool>(
      "t",
      ObjectSchema({{"path", {{"type", "string"}}}, {"limit", {{"type", "integer"}}}}, {"path"}),
      [](const CallContext&, const Json&) { return Result::Text("ran"); });
  ASSERT_TRUE(reg.Register(tool));
  auto out = reg.Execute(Req("t", {{"limit", "ten"}}));
  EXPECT_TRUE(out.result.is_error);
  EXPECT_NE(out.result.for_llm.find("args.path: required property missing"), std::string::npos);
  EXPECT_NE(out.result.for_llm.find("args.limit: expected integer, got string"), std::string::npos);
  EXPECT_EQ(tool->calls, 0);
}

TEST(Registry, EmptyArgumentsGuardNamesRequiredFields) {
  Registry reg;
  ASSERT_TRUE(reg.Register(Echo()));
  auto out = reg.Execute(Req("echo", Json::object()));
  EXPECT_TRUE(out.result.is_error);
  EXPECT_NE(out.result.for_llm.find("empty arguments (required: text)"), std::string::npos);
}

TEST(Registry, NonObjectArgumentsRejected) {
  Registry reg;
  ASSERT_TRUE(reg.Register(Echo()));
  auto out = reg.Execute(Req("echo", Json::array({1, 2})));
  EXPECT_TRUE(out.result.is_error);
  EXPECT_NE(out.result.for_llm.find("must be a JSON object"), std::string::npos);
}

TEST(Registry, ThrowingToolIsContained) {
  Registry reg;
  ASSERT_TRUE(reg.Register(std::make_shared<LambdaTool>(
      "boom", ObjectSchema(), [](const CallContext&, const Json&) -> Result {
        throw std::runtime_error("kaboom");
      })));
  ASSERT_TRUE(reg.Register(std::make_shared<LambdaTool>(
      "boom2", ObjectSchema(), [](const CallContext&, const Json&) -> Result { throw 42; })));
  auto out = reg.Execute(Req("boom", Json::object()));
  EXPECT_TRUE(out.result.is_error);
  EXPECT_NE(out.result.for_llm.find("kaboom"), std::string::npos);
  EXPECT_TRUE(reg.Execute(Req("boom2", Json::object())).result.is_error);
}

TEST(Registry, ContextCarriesPerCallValues) {
  Registry reg(RegistryOptions{.workspace = "/ws"});
  ASSERT_TRUE(reg.Register(std::make_shared<LambdaTool>(
      "ctx", ObjectSchema(), [](const CallContext& c, const Json&) {
        return Result::Text(c.tool() + "|" + c.channel() + "|" + c.chat_id() + "|" +
                            PeerKindName(c.peer_kind()) + "|" + c.session_key() + "|" +
                            c.sandbox_key() + "|" + c.agent_id() + "|" + c.user_id() + "|" +
                            c.workspace() + "|" + std::to_string(c.subagent_depth()));
      })));
  CallRequest r = Req("ctx", Json::object());
  r.channel = "telegram";
  r.chat_id = "42";
  r.peer_kind = PeerKind::kGroup;
  r.session_key = "s1";
  r.agent_id = "a";
  r.user_id = "u";
  r.subagent_depth = 2;
  EXPECT_EQ(reg.Execute(r).result.for_llm, "ctx|telegram|42|group|s1|s1|a|u|/ws|2");
  r.workspace = "/other";
  EXPECT_NE(reg.Execute(r).result.for_llm.find("|/other|"), std::string::npos);
}

TEST(Registry, CancelledCallNeverRuns) {
  Registry reg;
  auto tool = Echo();
  ASSERT_TRUE(reg.Register(tool));
  std::stop_source src;
  src.request_stop();
  CallRequest r = Req("echo", {{"text", "x"}});
  r.cancel = src.get_token();
  auto out = reg.Execute(r);
  EXPECT_TRUE(out.result.is_error);
  EXPECT_EQ(out.result.error_code, ErrorCode::kCancelled);
  EXPECT_EQ(tool->calls, 0);
}

TEST(Registry, DeadlineIsVisibleToTheTool) {
  Registry reg;
  ASSERT_TRUE(reg.Register(std::make_shared<LambdaTool>(
      "wait", ObjectSchema(), [](const CallContext& c, const Json&) {
        while (!c.expired() && !c.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return Result::Fail("timed out", ErrorCode::kDeadlineExceeded);
      })));
  CallRequest r = Req("wait", Json::object());
  r.timeout = std::chrono::milliseconds(20);
  auto out = reg.Execute(r);
  EXPECT_EQ(out.result.error_code, ErrorCode::kDeadlineExceeded);
  EXPECT_GE(out.duration, std::chrono::milliseconds(20));
}

class RecordingFilter : public CallFilter {
 public:
  RecordingFilter(std::string tag, std::vector<std::string>* log, bool block)
      : tag_(std::move(tag)), log_(log), block_(block) {}
  std::string_view name() const override { return tag_; }
  std::optional<Result> OnRequest(const CallState&) override {
    log_->push_back("req:" + tag_);
    if (block_) return Result::Fail("blocked by " + tag_);
    return std::nullopt;
  }
  void OnResult(const CallState&, Result& r) override {
    log_->push_back("res:" + tag_);
    r.for_llm += "+" + tag_;
  }

 private:
  std::string tag_;
  std::vector<std::string>* log_;
  bool block_;
};

TEST(Registry, FiltersRunInOrderAndSeeShortCircuits) {
  Registry reg;
  auto tool = Echo();
  ASSERT_TRUE(reg.Register(tool));
  std::vector<std::string> log;
  reg.AddFilter(std::make_shared<RecordingFilter>("a", &log, false));
  reg.AddFilter(std::make_shared<RecordingFilter>("b", &log, true));
  reg.AddFilter(std::make_shared<RecordingFilter>("c", &log, false));
  auto out = reg.Execute(Req("echo", {{"text", "x"}}));
  EXPECT_EQ(tool->calls, 0);
  EXPECT_EQ(out.result.for_llm, "blocked by b+c+b+a");
  EXPECT_EQ(log, (std::vector<std::string>{"req:a", "req:b", "res:c", "res:b", "res:a"}));
}

TEST(Registry, RateLimitedCallNeverRuns) {
  Registry reg;
  auto tool = Echo();
  ASSERT_TRUE(reg.Register(tool));
  reg.AddFilter(std::make_shared<RateLimitFilter>(
      std::vector<RateRule>{{RateScope::kSession, RateLimit{0.001, 2}}}));
  CallRequest r = Req("echo", {{"text", "x"}});
  r.session_key = "s";
  EXPECT_FALSE(reg.Execute(r).result.is_error);
  EXPECT_FALSE(reg.Execute(r).result.is_error);
  auto out = reg.Execute(r);
  EXPECT_TRUE(out.result.is_error);
  EXPECT_EQ(out.result.error_code, ErrorCode::kRateLimited);
  EXPECT_NE(out.result.for_llm.find("rate limit exceeded"), std::string::npos);
  EXPECT_EQ(tool->calls, 2);
  r.session_key = "other";
  EXPECT_FALSE(reg.Execute(r).result.is_error);
}

TEST(Registry, CloneSharesToolsButNotRegistrations) {
  Registry reg;
  ASSERT_TRUE(reg.Register(Echo()));
  auto copy = reg.Clone();
  ASSERT_TRUE(copy->Register(Echo("extra")));
  EXPECT_EQ(reg.size(), 1u);
  EXPECT_EQ(copy->size(), 2u);
  EXPECT_EQ(copy->Get("echo").get(), reg.Get("echo").get());
}

TEST(Registry, ConcurrentCallsAndRegistrations) {
  Registry reg;
  ASSERT_TRUE(reg.Register(Echo()));
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int i = 0; !stop; ++i) {
      reg.Upsert(Echo("t" + std::to_string(i % 8)));
      reg.Unregister("t" + std::to_string((i + 4) % 8));
    }
  });
  std::vector<std::thread> callers;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) ok += !reg.Execute(Req("echo", {{"text", "x"}})).result.is_error;
    });
  }
  for (auto& c : callers) c.join();
  stop = true;
  writer.join();
  EXPECT_EQ(ok, 8000);
}

}  // namespace
}  // namespace clawtools
