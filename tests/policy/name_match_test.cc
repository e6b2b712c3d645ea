#include "policy/name_match.h"

#include <gtest/gtest.h>

namespace clawtools::policy {
namespace {

struct GlobCase {
  const char* pattern;
  const char* name;
  bool match;
};

TEST(NameMatchTest, Glob) {
  const GlobCase cases[] = {
      {"*", "", true},
      {"*", "exec", true},
      {"mcp_github_*", "mcp_github__create_issue", true},
      {"mcp_github_*", "mcp_gitlab__x", false},
      {"*_search", "web_search", true},
      {"*_search", "web_search2", false},
      {"a*b*c", "aXbYc", true},
      {"a*b*c", "abcb", false},
      {"a**c", "ac", true},
      {"exec", "exec", true},
      {"exec", "Exec", false},
      {"*ss*", "process", true},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(GlobMatch(c.pattern, c.name), c.match) << c.pattern << " vs " << c.name;
  }
  EXPECT_TRUE(IsGlob("mcp_*"));
  EXPECT_FALSE(IsGlob("exec"));
}

TEST(NameMatchTest, AsciiLower) {
  EXPECT_EQ(AsciiLower("Sessions_Spawn"), "sessions_spawn");
  EXPECT_EQ(AsciiLower("MCP_x9"), "mcp_x9");
}

TEST(NameMatchTest, EditDistanceIsCapped) {
  EXPECT_EQ(EditDistance("exec", "exec", 2), 0u);
  EXPECT_EQ(EditDistance("exce", "exec", 2), 2u);
  EXPECT_EQ(EditDistance("read_fle", "read_file", 2), 1u);
  EXPECT_EQ(EditDistance("message", "exec", 2), 3u);
}

}  // namespace
}  // namespace clawtools::policy
