#include "gateway/invoke_request.h"

#include <gtest/gtest.h>

#include "core/json.h"

namespace clawtools {
namespace {

TEST(InvokeRequestTest, EmptyBodyMeansDefaults) {
  for (const char* body : {"", "  \n", "{}"}) {
    auto request = ParseInvokeRequest("echo", body);
    ASSERT_TRUE(request) << body;
    EXPECT_EQ(request->tool, "echo");
    EXPECT_EQ(request->args, Json::object());
    EXPECT_EQ(request->peer_kind, PeerKind::kUnspecified);
    EXPECT_FALSE(request->timeout.has_value());
  }
}

TEST(InvokeRequestTest, ReadsEveryField) {
  auto request = ParseInvokeRequest("echo", R"({
    "args": {"text": "hi"}, "session": "s1", "channel": "telegram", "chat_id": "c9",
    "peer_kind": "group", "agent": "main", "user": "u1", "provider": "anthropic",
    "group_allow": ["web_fetch", "group:fs"], "subagent_depth": 2, "timeout_ms": 1500})");
  ASSERT_TRUE(request) << request.error().for_model;
  EXPECT_EQ(request->args, (Json{{"text", "hi"}}));
  EXPECT_EQ(request->session_key, "s1");
  EXPECT_EQ(request->channel, "telegram");
  EXPECT_EQ(request->chat_id, "c9");
  EXPECT_EQ(request->peer_kind, PeerKind::kGroup);
  EXPECT_EQ(request->agent_id, "main");
  EXPECT_EQ(request->user_id, "u1");
  EXPECT_EQ(request->provider, "anthropic");
  EXPECT_EQ(request->group_allow, (std::vector<std::string>{"web_fetch", "group:fs"}));
  EXPECT_EQ(request->subagent_depth, 2);
  EXPECT_EQ(request->timeout, std::chrono::milliseconds(1500));
}

TEST(InvokeRequestTest, NullMeansAbsent) {
  auto request =
      ParseInvokeRequest("echo", R"({"args": null, "session": null, "timeout_ms": null})");
  ASSERT_TRUE(request);
  EXPECT_EQ(request->args, Json::object());
}

TEST(InvokeRequestTest, RejectsWithAMessageNamingTheField) {
  struct Case {
    const char* body;
    const char* expected;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"{", "not valid JSON"},
           {"[1]", "must be a JSON object"},
           {R"({"args": "text"})", "\"args\" must be an object"},
           {R"({"args": [1]})", "\"args\" must be an object"},
           {R"({"session": 5})", "\"session\" must be a string"},
           {R"({"peer_kind": "channel"})", "\"peer_kind\" must be \"direct\" or \"group\""},
           {R"({"group_allow": "a"})", "\"group_allow\" must be an array of strings"},
           {R"({"group_allow": ["a", 1]})", "\"group_allow\" must be an array of strings"},
           {R"({"subagent_depth": "1"})", "\"subagent_depth\" must be an integer"},
           {R"({"subagent_depth": 1.5})", "\"subagent_depth\" must be an integer"},
           {R"({"subagent_depth": -1})", "\"subagent_depth\" must be an integer from 0"},
           {R"({"timeout_ms": 0})", "\"timeout_ms\" must be an integer from 1"},
           {R"({"timeout_ms": 18446744073709551615})", "\"timeout_ms\" must be an integer from"},
           {R"({"arg": {}})", "unknown field \"arg\""},
       }) {
    auto request = ParseInvokeRequest("echo", c.body);
    ASSERT_FALSE(request) << c.body;
    EXPECT_EQ(request.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(request.error().for_model.find(c.expected), std::string::npos)
        << c.body << " -> " << request.error().for_model;
  }
}

}  // namespace
}  // namespace clawtools
