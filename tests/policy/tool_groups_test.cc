#include "policy/tool_groups.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace clawtools {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

TEST(ToolGroupsTest, BuiltinGroupsAreTheSeedTable) {
  struct Case {
    const char* group;
    std::vector<std::string> members;
  };
  const Case cases[] = {
      {"fs", {"read_file", "write_file", "list_files", "edit_file", "search", "glob"}},
      {"runtime", {"exec", "process"}},
      {"web", {"web_search", "web_fetch"}},
      {"memory", {"memory_search", "memory_get"}},
      {"sessions",
       {"sessions_list", "sessions_history", "sessions_send", "sessions_spawn", "subagents",
        "session_status"}},
      {"ui", {"browser", "canvas"}},
      {"automation", {"cron", "gateway"}},
      {"messaging", {"message"}},
  };
  for (const auto& c : cases) {
    const auto* members = ToolGroups::Builtin(c.group);
    ASSERT_NE(members, nullptr) << c.group;
    EXPECT_EQ(*members, c.members) << c.group;
  }
  EXPECT_EQ(ToolGroups::Builtin("knowledge"), nullptr);
  EXPECT_EQ(ToolGroups::Builtin("mcp"), nullptr);
}

TEST(ToolGroupsTest, GoclawIsEveryNativeTool) {
  EXPECT_THAT(*ToolGroups::Builtin("goclaw"),
              UnorderedElementsAre(
                  "read_file", "write_file", "list_files", "edit_file", "search", "glob", "exec",
                  "process", "web_search", "web_fetch", "memory_search", "memory_get",
                  "sessions_list", "sessions_history", "sessions_send", "sessions_spawn",
                  "subagents", "session_status", "browser", "canvas", "cron", "gateway", "message",
                  "skill_search", "image", "tts", "spawn", "nodes"));
}

TEST(ToolGroupsTest, DynamicNames) {
  EXPECT_TRUE(ToolGroups::IsDynamicName("mcp"));
  EXPECT_TRUE(ToolGroups::IsDynamicName("mcp:github"));
  EXPECT_FALSE(ToolGroups::IsDynamicName("mcp:"));
  EXPECT_FALSE(ToolGroups::IsDynamicName("mcpx"));
  EXPECT_FALSE(ToolGroups::IsDynamicName("fs"));
}

TEST(ToolGroupsTest, KnownToolNames) {
  EXPECT_TRUE(ToolGroups::IsKnownToolName("exec"));
  EXPECT_TRUE(ToolGroups::IsKnownToolName("bash"));
  EXPECT_TRUE(ToolGroups::IsKnownToolName("Read"));
  EXPECT_TRUE(ToolGroups::IsKnownToolName("agents_list"));
  EXPECT_FALSE(ToolGroups::IsKnownToolName("exce"));
  EXPECT_FALSE(ToolGroups::IsKnownToolName("EXEC"));
}

}  // namespace
}  // namespace clawtools
