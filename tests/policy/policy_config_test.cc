#include "policy/policy_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace clawtools {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(PolicyConfigTest, ParsesEveryScope) {
  std::vector<std::string> warnings;
  auto cfg = PolicyConfig::FromJson(Json::parse(R"({
    "tools": {"profile": "coding", "allow": ["group:fs"], "deny": ["exec"], "alsoAllow": ["web_fetch"],
              "byProvider": {"openai": {"profile": "minimal", "allow": ["read_file"]}},
              "execApproval": {"security": "full"}},
    "agents": {"defaults": {"subagents": {"maxSpawnDepth": 3}},
               "list": [{"id": "coder", "type": "predefined",
                         "tools": {"deny": ["message"],
                                   "byProvider": {"anthropic": {"alsoAllow": ["cron"]}}}},
                        {"id": "plain"}]}})"),
                                    &warnings);
  ASSERT_TRUE(cfg) << cfg.error().for_model;
  EXPECT_THAT(warnings, IsEmpty());
  EXPECT_EQ(cfg->global.origin, "tools");
  EXPECT_EQ(cfg->global.base, (PolicySpec{"coding", {"group:fs"}, {"exec"}, {"web_fetch"}}));
  EXPECT_EQ(cfg->global.by_provider.at("openai"), (PolicySpec{"minimal", {"read_file"}, {}, {}}));
  EXPECT_EQ(cfg->max_spawn_depth, 3);
  ASSERT_EQ(cfg->agents.size(), 1u);
  const ScopePolicy& coder = cfg->agents.at("coder");
  EXPECT_EQ(coder.origin, "agents.list[0].tools");
  EXPECT_EQ(coder.base.deny, std::vector<std::string>{"message"});
  EXPECT_EQ(coder.by_provider.at("anthropic").also_allow, std::vector<std::string>{"cron"});
}

TEST(PolicyConfigTest, Defaults) {
  auto cfg = PolicyConfig::FromJson(Json::object(), nullptr);
  ASSERT_TRUE(cfg);
  EXPECT_EQ(cfg->max_spawn_depth, 1);
  EXPECT_EQ(cfg->global.base, PolicySpec{});
  EXPECT_TRUE(cfg->agents.empty());
}

struct ErrorCase {
  const char* name;
  const char* config;
  const char* error;
};

// Names the case in failure messages instead of dumping its bytes.
void PrintTo(const ErrorCase& c, std::ostream* os) {
  *os << c.name;
}

class ConfigErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ConfigErrorTest, FailsNamingTheKey) {
  auto cfg = PolicyConfig::FromJson(Json::parse(GetParam().config), nullptr);
  ASSERT_FALSE(cfg);
  EXPECT_EQ(cfg.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(cfg.error().for_model, GetParam().error);
}

const ErrorCase kErrorCases[] = {
    {"UnknownProfile", R"({"tools":{"profile":"codng"}})",
     "tools.profile: unknown profile \"codng\" (known: full, coding, messaging, minimal)"},
    {"UnknownProviderProfile", R"({"tools":{"byProvider":{"openai":{"profile":"all"}}}})",
     "tools.byProvider.openai.profile: unknown profile \"all\" (known: full, coding, messaging, "
     "minimal)"},
    {"UnknownAgentProviderProfile",
     R"({"agents":{"list":[{"id":"a","tools":{"byProvider":{"x":{"profile":"nope"}}}}]}})",
     "agents.list[0].tools.byProvider.x.profile: unknown profile \"nope\" (known: full, coding, "
     "messaging, minimal)"},
    {"UnknownGroupInAllow", R"({"tools":{"allow":["exec","group:knowledge"]}})",
     "tools.allow[1]: unknown group \"group:knowledge\" (known: group:automation, group:fs, "
     "group:goclaw, group:memory, group:messaging, group:runtime, group:sessions, group:ui, "
     "group:web, group:mcp, group:mcp:<server>)"},
    {"UnknownGroupInAgentDeny",
     R"({"agents":{"list":[{"id":"a"},{"id":"b","tools":{"deny":["group:nope"]}}]}})",
     "agents.list[1].tools.deny[0]: unknown group \"group:nope\" (known: group:automation, "
     "group:fs, group:goclaw, group:memory, group:messaging, group:runtime, group:sessions, "
     "group:ui, group:web, group:mcp, group:mcp:<server>)"},
    {"UnknownGroupInAlsoAllow", R"({"tools":{"alsoAllow":["group:mcp:"]}})",
     "tools.alsoAllow[0]: unknown group \"group:mcp:\" (known: group:automation, group:fs, "
     "group:goclaw, group:memory, group:messaging, group:runtime, group:sessions, group:ui, "
     "group:web, group:mcp, group:mcp:<server>)"},
    {"EmptyEntry", R"({"tools":{"deny":[""]}})", "tools.deny[0]: empty entry"},
    {"ListNotArray", R"({"tools":{"allow":"exec"}})", "tools.allow: must be an array"},
    {"EntryNotString", R"({"tools":{"deny":["exec",3]}})", "tools.deny[1]: must be a string"},
    {"ProfileNotString", R"({"tools":{"profile":1}})", "tools.profile: must be a string"},
    {"ByProviderNotObject", R"({"tools":{"byProvider":[]}})",
     "tools.byProvider: must be an object"},
    {"AgentWithoutId", R"({"agents":{"list":[{"tools":{}}]}})",
     "agents.list[0].id: must be a non-empty string"},
    {"DuplicateAgent", R"({"agents":{"list":[{"id":"a"},{"id":"a"}]}})",
     "agents.list[1].id: duplicate agent id \"a\""},
    {"DepthNotInteger", R"({"agents":{"defaults":{"subagents":{"maxSpawnDepth":"2"}}}})",
     "agents.defaults.subagents.maxSpawnDepth: must be an integer"},
    {"DepthZero", R"({"agents":{"defaults":{"subagents":{"maxSpawnDepth":0}}}})",
     "agents.defaults.subagents.maxSpawnDepth: must be at least 1"},
};

INSTANTIATE_TEST_SUITE_P(Errors, ConfigErrorTest, ::testing::ValuesIn(kErrorCases),
                         [](const auto& info) { return info.param.name; });

struct WarningCase {
  const char* name;
  const char* config;
  std::vector<std::string> warnings;
};

// Names the case in failure messages instead of dumping its bytes.
void PrintTo(const WarningCase& c, std::ostream* os) {
  *os << c.name;
}

class ConfigWarningTest : public ::testing::TestWithParam<WarningCase> {};

TEST_P(ConfigWarningTest, LoadsAndWarns) {
  std::vector<std::string> warnings;
  auto cfg = PolicyConfig::FromJson(Json::parse(GetParam().config), &warnings);
  ASSERT_TRUE(cfg) << cfg.error().for_model;
  EXPECT_EQ(warnings, GetParam().warnings);
}

const WarningCase kWarningCases[] = {
    {"UnknownToolWithSuggestion",
     R"({"tools":{"allow":["read_file","exce"]}})",
     {"tools.allow[1]: unknown tool \"exce\"; did you mean \"exec\"? (kept: it matches only if "
      "an MCP or custom tool registers that name)"}},
    {"UnknownToolWithoutSuggestion",
     R"({"agents":{"list":[{"id":"a","tools":{"deny":["zzzzzz"]}}]}})",
     {"agents.list[0].tools.deny[0]: unknown tool \"zzzzzz\" (kept: it matches only if an MCP or "
      "custom tool registers that name)"}},
    {"KnownNamesAliasesGlobsAndDynamicGroupsAreQuiet",
     R"({"tools":{"allow":["bash","Read","mcp_github_*","group:mcp","group:mcp:github","agents_list"]}})",
     {}},
    {"AlsoAllowReAddsDeniedGroupMember",
     R"({"tools":{"deny":["group:runtime"],"alsoAllow":["exec"]}})",
     {"tools.alsoAllow[0] \"exec\" re-adds what tools.deny[0] \"group:runtime\" removes "
      "(alsoAllow runs after deny)"}},
    {"AlsoAllowGlobReAddsDeniedName",
     R"({"tools":{"deny":["mcp_github__x"],"alsoAllow":["mcp_*"]}})",
     {"tools.deny[0]: unknown tool \"mcp_github__x\" (kept: it matches only if an MCP or custom "
      "tool registers that name)",
      "tools.alsoAllow[0] \"mcp_*\" re-adds what tools.deny[0] \"mcp_github__x\" removes "
      "(alsoAllow runs after deny)"}},
    {"GlobalAlsoAllowReAddsAgentDeny",
     R"({"tools":{"alsoAllow":["cron"]},"agents":{"list":[{"id":"a","tools":{"deny":["group:automation"]}}]}})",
     {"tools.alsoAllow[0] \"cron\" re-adds what agents.list[0].tools.deny[0] \"group:automation\" "
      "removes (alsoAllow runs after deny)"}},
    {"DifferentProvidersDoNotInteract",
     R"({"tools":{"byProvider":{"a":{"deny":["exec"]},"b":{"alsoAllow":["exec"]}}}})",
     {}},
    {"UnrelatedListsAreQuiet",
     R"({"tools":{"deny":["group:runtime"],"alsoAllow":["web_fetch"]}})",
     {}},
    {"UnknownKeyInAgentTools",
     R"({"agents":{"list":[{"id":"a","tools":{"alsoAlow":["x"]}}]}})",
     {"agents.list[0].tools.alsoAlow: unknown key (ignored by the policy)"}},
};

INSTANTIATE_TEST_SUITE_P(Warnings, ConfigWarningTest, ::testing::ValuesIn(kWarningCases),
                         [](const auto& info) { return info.param.name; });

TEST(PolicyConfigTest, ScopeFromStoreJson) {
  std::vector<std::string> warnings;
  auto scope = ScopePolicy::FromJson(Json::parse(R"({"allow":["group:fs"],"deny":["write_file"],
      "toolCallPrefix":"proxy_"})"),
                                     "store.tools_config[a]", true, &warnings);
  ASSERT_TRUE(scope);
  EXPECT_THAT(warnings, IsEmpty());
  EXPECT_EQ(scope->origin, "store.tools_config[a]");
  EXPECT_EQ(scope->base.deny, std::vector<std::string>{"write_file"});

  auto bad = ScopePolicy::FromJson(Json::parse(R"({"profile":"x"})"), "store.tools_config[a]", true,
                                   nullptr);
  ASSERT_FALSE(bad);
  EXPECT_THAT(bad.error().for_model, ::testing::StartsWith("store.tools_config[a].profile:"));
}

TEST(PolicyConfigTest, ValidateCatchesHandBuiltConfigs) {
  PolicyConfig cfg;
  cfg.agents["a"] = ScopePolicy{.base = {.profile = "nope"}, .origin = "agents[a].tools"};
  auto st = cfg.Validate(nullptr);
  ASSERT_FALSE(st);
  EXPECT_THAT(st.error().for_model, ::testing::StartsWith("agents[a].tools.profile: unknown"));
}

}  // namespace
}  // namespace clawtools
