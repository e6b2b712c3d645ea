// MCP grants and access requests on SQLite and PostgreSQL (the PG variant needs
// CLAWTOOLS_TEST_PG_URL).
#include "mcp/access_store.h"

#include <gtest/gtest.h>

#include "../store/test_database.h"
#include "mcp/server_store.h"

namespace clawtools::mcp {
namespace {

using store::testing::BackendTest;
using Names = std::vector<std::string>;

class McpAccessTest : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped()) return;
    for (std::string name : {"fs", "web", "off"}) {
      McpServerConfig c;
      c.name = name;
      c.command = "true";
      c.enabled = name != "off";
      ASSERT_TRUE(McpServerStore(*store_).Put(c).has_value());
    }
  }
  McpAccessStore access() { return McpAccessStore(*store_); }
  Names Servers(const std::string& agent, const std::string& user) {
    auto got = access().LoadForAgent(agent, user);
    EXPECT_TRUE(got.has_value()) << got.error().log_message();
    Names out;
    for (auto& s : got.value_or(std::vector<AccessibleServer>{})) out.push_back(s.config.name);
    return out;
  }
  AccessibleServer One(const std::string& agent, const std::string& user) {
    auto got = access().LoadForAgent(agent, user);
    EXPECT_TRUE(got.has_value() && got->size() == 1u);
    return got && !got->empty() ? got->front() : AccessibleServer{};
  }
};

TEST_P(McpAccessTest, AgentGrantIsRequiredAndServerMustBeEnabled) {
  EXPECT_EQ(Servers("a", ""), Names{});
  ASSERT_TRUE(access().PutAgentGrant({.server = "fs", .agent_id = "a"}).has_value());
  ASSERT_TRUE(access().PutAgentGrant({.server = "off", .agent_id = "a"}).has_value());
  EXPECT_EQ(Servers("a", ""), Names{"fs"});
  EXPECT_EQ(Servers("b", ""), Names{});
  ASSERT_TRUE(
      access().PutAgentGrant({.server = "fs", .agent_id = "a", .enabled = false}).has_value());
  EXPECT_EQ(Servers("a", ""), Names{});
  EXPECT_EQ(access().PutAgentGrant({.server = "nope", .agent_id = "a"}).error().code,
            ErrorCode::kNotFound);
}

TEST_P(McpAccessTest, DenyWinsThenAllowListKeeps) {
  AgentGrant g{.server = "fs", .agent_id = "a"};
  g.tools.allow = Names{"read", "write"};
  g.tools.deny = {"write", "delete"};
  ASSERT_TRUE(access().PutAgentGrant(g).has_value());
  auto s = One("a", "");
  EXPECT_TRUE(s.Allows("read"));
  EXPECT_FALSE(s.Allows("write"));  // allowed and denied: deny wins
  EXPECT_FALSE(s.Allows("delete"));
  EXPECT_FALSE(s.Allows("list"));  // not in the allow list
  g.tools.allow.reset();
  ASSERT_TRUE(access().PutAgentGrant(g).has_value());
  EXPECT_TRUE(One("a", "").Allows("list"));
}

TEST_P(McpAccessTest, UserGrantsRestrictUsersAndFilterTools) {
  ASSERT_TRUE(access().PutAgentGrant({.server = "fs", .agent_id = "a"}).has_value());
  EXPECT_EQ(Servers("a", "alice"), Names{"fs"});  // no user grants: agent grant decides
  UserGrant u{.server = "fs", .user_id = "alice"};
  u.tools.deny = {"write"};
  ASSERT_TRUE(access().PutUserGrant(u).has_value());
  EXPECT_EQ(Servers("a", "bob"), Names{});  // user grants exist: bob has none
  EXPECT_EQ(Servers("a", ""), Names{});
  auto s = One("a", "alice");
  EXPECT_TRUE(s.Allows("read"));
  EXPECT_FALSE(s.Allows("write"));  // the user grant's list really applies
  u.enabled = false;
  ASSERT_TRUE(access().PutUserGrant(u).has_value());
  EXPECT_EQ(Servers("a", "alice"), Names{});  // a disabled user grant still restricts
  ASSERT_TRUE(access().RemoveUserGrant("fs", "alice").has_value());
  EXPECT_EQ(Servers("a", "alice"), Names{"fs"});
}

TEST_P(McpAccessTest, ConfigOverridesMergeIntoTheServer) {
  AgentGrant g{.server = "fs", .agent_id = "a"};
  g.config_overrides = {{"env", {{"TOKEN", "x"}}}, {"args", {"--ro"}}, {"timeout_sec", 5}};
  ASSERT_TRUE(access().PutAgentGrant(g).has_value());
  auto s = One("a", "");
  EXPECT_EQ(s.config.env["TOKEN"], "x");
  EXPECT_EQ(s.config.args, Names{"--ro"});
  EXPECT_EQ(s.config.timeout, std::chrono::seconds(5));
  auto back = access().GetAgentGrant("fs", "a");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->config_overrides["env"]["TOKEN"], "x");
}

TEST_P(McpAccessTest, ApprovingARequestCreatesTheGrant) {
  AccessRequest r{.server = "web", .scope = RequestScope::kAgent, .agent_id = "a"};
  r.tools = Names{"fetch"};
  r.reason = "needs the web";
  r.requested_by = "alice";
  auto created = access().CreateRequest(r);
  ASSERT_TRUE(created.has_value()) << created.error().log_message();
  EXPECT_EQ(created->status, RequestStatus::kPending);
  EXPECT_EQ(Servers("a", ""), Names{});
  auto reviewed = access().ReviewRequest(created->id, true, "root", "ok");
  ASSERT_TRUE(reviewed.has_value()) << reviewed.error().log_message();
  EXPECT_EQ(reviewed->status, RequestStatus::kApproved);
  auto s = One("a", "");
  EXPECT_EQ(s.config.name, "web");
  EXPECT_TRUE(s.Allows("fetch"));
  EXPECT_FALSE(s.Allows("search"));
  auto again = access().ReviewRequest(created->id, false, "root");
  EXPECT_EQ(again.error().code, ErrorCode::kAlreadyExists);
  auto got = access().GetRequest(created->id);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->requested_by, "alice");
  EXPECT_EQ(got->reason, "needs the web");
  EXPECT_EQ(got->reviewer, "root");
}

TEST_P(McpAccessTest, RejectingCreatesNothingAndUserScopeGrantsUsers) {
  auto rejected =
      access().CreateRequest({.server = "fs", .scope = RequestScope::kAgent, .agent_id = "a"});
  ASSERT_TRUE(rejected.has_value());
  ASSERT_TRUE(access().ReviewRequest(rejected->id, false, "root").has_value());
  EXPECT_EQ(Servers("a", ""), Names{});
  auto user =
      access().CreateRequest({.server = "fs", .scope = RequestScope::kUser, .user_id = "bob"});
  ASSERT_TRUE(user.has_value());
  ASSERT_TRUE(access().ReviewRequest(user->id, true, "root").has_value());
  EXPECT_TRUE(access().GetUserGrant("fs", "bob").has_value());
  auto pending = access().ListRequests(RequestStatus::kPending);
  ASSERT_TRUE(pending.has_value());
  EXPECT_TRUE(pending->empty());
  EXPECT_EQ(access().ListRequests(std::nullopt)->size(), 2u);
  EXPECT_EQ(access().CreateRequest({.server = "fs", .scope = RequestScope::kUser}).error().code,
            ErrorCode::kInvalidArgument);
}

TEST_P(McpAccessTest, AFailedGrantRollsTheReviewBack) {
  auto r = access().CreateRequest({.server = "fs", .scope = RequestScope::kAgent, .agent_id = "a"});
  ASSERT_TRUE(r.has_value());
  // Make the grant insert fail inside the review's transaction.
  ASSERT_TRUE(store_->Exec("DROP TABLE mcp_agent_grants").has_value());
  EXPECT_FALSE(access().ReviewRequest(r->id, true, "root").has_value());
  auto after = access().GetRequest(r->id);
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->status, RequestStatus::kPending);
  EXPECT_TRUE(after->reviewer.empty());
}

CLAWTOOLS_INSTANTIATE_BACKENDS(McpAccessTest);

}  // namespace
}  // namespace clawtools::mcp
