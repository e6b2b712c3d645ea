#include "sandbox/policy.h"

#include <gtest/gtest.h>

namespace clawtools::sandbox {
namespace {

TEST(Policy, DefaultsThenAgentOverrides) {
  Json root = Json::parse(
      R"({"agents":{"defaults":{"sandbox":{"mode":"all","memory_mb":256,"env":{"A":"1"}}},
    "list":[{"id":"coder","sandbox":{"mode":"required","backend":"docker","workspace_access":"ro",
             "network_enabled":true,"env":{"B":"2"}}}]}})");
  Policy d = PolicyFor(root, "other");
  EXPECT_EQ(d.mode, Mode::kAll);
  EXPECT_EQ(d.memory_mb, 256);
  EXPECT_EQ(d.workspace_access, WorkspaceAccess::kReadWrite);
  EXPECT_FALSE(d.network_enabled);
  Policy c = PolicyFor(root, "coder");
  EXPECT_EQ(c.mode, Mode::kRequired);
  EXPECT_EQ(c.backend, BackendKind::kDocker);
  EXPECT_EQ(c.workspace_access, WorkspaceAccess::kReadOnly);
  EXPECT_TRUE(c.network_enabled);
  EXPECT_EQ(c.memory_mb, 256);
  EXPECT_EQ(c.env.size(), 2u);
  EXPECT_EQ(PolicyFor(Json::object(), "x").mode, Mode::kOff);
}

TEST(Policy, MainSessionDefinition) {
  EXPECT_TRUE(IsMainSession(""));
  EXPECT_TRUE(IsMainSession("main"));
  EXPECT_TRUE(IsMainSession("agent:coder:main"));
  EXPECT_FALSE(IsMainSession("agent:coder:telegram:123"));
  EXPECT_FALSE(IsMainSession("domain"));
}

TEST(Policy, RoutingByModeAndSession) {
  EXPECT_EQ(Route(Mode::kOff, "s1"), Placement::kHost);
  EXPECT_EQ(Route(Mode::kAll, ""), Placement::kSandbox);
  EXPECT_EQ(Route(Mode::kNonMain, "agent:a:main"), Placement::kHost);
  EXPECT_EQ(Route(Mode::kNonMain, "agent:a:group:9"), Placement::kSandbox);
  EXPECT_EQ(Route(Mode::kRequired, "main"), Placement::kSandbox);
}

}  // namespace
}  // namespace clawtools::sandbox
