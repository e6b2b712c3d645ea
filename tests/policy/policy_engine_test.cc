#include "policy/policy_engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "policy_test_util.h"

namespace clawtools {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::kMcpTools;
using testing::MustParse;
using testing::NativeTools;
using testing::StandardRegistry;

using Names = std::vector<std::string>;

Names Sorted(Names v) {
  std::ranges::sort(v);
  return v;
}

Names AllStandard() {
  Names all = NativeTools();
  all.insert(all.end(), kMcpTools.begin(), kMcpTools.end());
  return Sorted(all);
}

Names Except(const Names& removed) {
  Names out;
  for (const auto& n : AllStandard()) {
    if (std::ranges::find(removed, n) == removed.end()) out.push_back(n);
  }
  return out;
}

const Names kCoding = {
    "read_file",     "write_file",     "list_files", "edit_file",      "search",
    "glob",          "exec",           "process",    "sessions_list",  "sessions_history",
    "sessions_send", "sessions_spawn", "subagents",  "session_status", "memory_search",
    "memory_get",    "image"};
const Names kMessaging = {"message", "sessions_list", "sessions_history", "sessions_send",
                          "session_status"};
const Names kSubagentAlways = {
    "gateway",    "session_status", "cron", "memory_search",
    "memory_get", "sessions_send"};  // agents_list/whatsapp_login are not tools here
const Names kLeaf = {"sessions_list", "sessions_history", "sessions_spawn", "spawn", "subagents"};

Names Concat(std::initializer_list<Names> parts) {
  Names out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

struct PipelineCase {
  std::string name;
  std::string config;
  PolicyQuery query;
  Names want;  // exact set of allowed canonical names
};

// Names the case in failure messages instead of dumping its bytes.
void PrintTo(const PipelineCase& c, std::ostream* os) {
  *os << c.name;
}

class PipelineTest : public ::testing::TestWithParam<PipelineCase> {};

TEST_P(PipelineTest, AllowedSet) {
  const PipelineCase& c = GetParam();
  PolicyEngine engine(MustParse(c.config));
  auto reg = StandardRegistry();
  EXPECT_EQ(*engine.Allowed(*reg, c.query), Sorted(c.want));
}

const PipelineCase kPipelineCases[] = {
    {"EmptyConfigAllowsEverything", "{}", {}, AllStandard()},
    {"ProfileFull", R"({"tools":{"profile":"full"}})", {}, AllStandard()},
    {"ProfileMinimal", R"({"tools":{"profile":"minimal"}})", {}, {"session_status"}},
    {"ProfileCoding", R"({"tools":{"profile":"coding"}})", {}, kCoding},
    {"ProfileMessaging", R"({"tools":{"profile":"messaging"}})", {}, kMessaging},
    {"ProviderProfileReplacesGlobal",
     R"({"tools":{"profile":"coding","byProvider":{"openai":{"profile":"minimal"}}}})",
     {.provider = "openai"},
     {"session_status"}},
    {"ProviderProfileOnlyForItsProvider",
     R"({"tools":{"profile":"coding","byProvider":{"openai":{"profile":"minimal"}}}})",
     {.provider = "anthropic"},
     kCoding},
    {"ProviderProfileFullWidens",
     R"({"tools":{"profile":"minimal","byProvider":{"openai":{"profile":"full"}}}})",
     {.provider = "openai"},
     AllStandard()},
    {"GlobalAllow",
     R"({"tools":{"allow":["group:web","exec"]}})",
     {},
     {"web_search", "web_fetch", "exec"}},
    {"GlobalAllowIntersectsProfile",
     R"({"tools":{"profile":"coding","allow":["exec","web_search"]}})",
     {},
     {"exec"}},
    {"ProviderAllowIntersects",
     R"({"tools":{"allow":["group:fs"],"byProvider":{"openai":{"allow":["read_file","exec"]}}}})",
     {.provider = "openai"},
     {"read_file"}},
    {"ProviderAllowIgnoredForOtherProvider",
     R"({"tools":{"allow":["group:fs"],"byProvider":{"openai":{"allow":["read_file"]}}}})",
     {.provider = "gemini"},
     {"read_file", "write_file", "list_files", "edit_file", "search", "glob"}},
    {"AgentAllow",
     R"({"agents":{"list":[{"id":"a","tools":{"allow":["group:memory","exec"]}}]}})",
     {.agent_id = "a"},
     {"memory_search", "memory_get", "exec"}},
    {"OtherAgentUnaffected",
     R"({"agents":{"list":[{"id":"a","tools":{"allow":["exec"]}}]}})",
     {.agent_id = "b"},
     AllStandard()},
    {"AgentAllowIntersectsGlobal",
     R"({"tools":{"allow":["group:runtime","message"]},
         "agents":{"list":[{"id":"a","tools":{"allow":["exec","message","cron"]}}]}})",
     {.agent_id = "a"},
     {"exec", "message"}},
    {"AgentProviderAllow",
     R"({"agents":{"list":[{"id":"a","tools":{"allow":["exec","message"],
         "byProvider":{"openai":{"allow":["message"]}}}}]}})",
     {.agent_id = "a", .provider = "openai"},
     {"message"}},
    {"AgentProfileHonoured",
     R"({"tools":{"profile":"coding"},"agents":{"list":[{"id":"a","tools":{"profile":"messaging"}}]}})",
     {.agent_id = "a"},
     kMessaging},
    {"AgentProviderProfileWins",
     R"({"tools":{"profile":"coding","byProvider":{"openai":{"profile":"full"}}},
         "agents":{"list":[{"id":"a","tools":{"byProvider":{"openai":{"profile":"minimal"}}}}]}})",
     {.agent_id = "a", .provider = "openai"},
     {"session_status"}},
    {"GroupAllow",
     "{}",
     {.group_allow = {"group:messaging", "read_file"}},
     {"message", "read_file"}},
    {"GroupAllowIntersectsAgentAllow",
     R"({"agents":{"list":[{"id":"a","tools":{"allow":["group:fs"]}}]}})",
     {.agent_id = "a", .group_allow = {"read_file", "exec"}},
     {"read_file"}},
    {"GroupAllowAllUnknownFailsClosed", "{}", {.group_allow = {"group:nope", "no_such_tool"}}, {}},
    {"GlobalDeny", R"({"tools":{"deny":["group:runtime"]}})", {}, Except({"exec", "process"})},
    {"AgentDeny",
     R"({"agents":{"list":[{"id":"a","tools":{"deny":["message","cron"]}}]}})",
     {.agent_id = "a"},
     Except({"message", "cron"})},
    {"GlobalProviderDeny",
     R"({"tools":{"byProvider":{"openai":{"deny":["exec"]}}}})",
     {.provider = "openai"},
     Except({"exec"})},
    {"AgentProviderDeny",
     R"({"agents":{"list":[{"id":"a","tools":{"byProvider":{"openai":{"deny":["exec"]}}}}]}})",
     {.agent_id = "a", .provider = "openai"},
     Except({"exec"})},
    {"DenyBeatsAllow",
     R"({"tools":{"allow":["exec","process"],"deny":["exec"]}})",
     {},
     {"process"}},
    {"AlsoAllowReAddsGlobalDeny",
     R"({"tools":{"deny":["group:runtime"],"alsoAllow":["exec"]}})",
     {},
     Except({"process"})},
    {"AlsoAllowAddsOutsideProfile",
     R"({"tools":{"profile":"minimal","alsoAllow":["web_fetch"]}})",
     {},
     {"session_status", "web_fetch"}},
    {"AgentAlsoAllowReAddsGlobalDeny",
     R"({"tools":{"deny":["cron"]},"agents":{"list":[{"id":"a","tools":{"alsoAllow":["cron"]}}]}})",
     {.agent_id = "a"},
     AllStandard()},
    {"GlobalAlsoAllowReAddsAgentDeny",
     R"({"tools":{"alsoAllow":["cron"]},"agents":{"list":[{"id":"a","tools":{"deny":["cron"]}}]}})",
     {.agent_id = "a"},
     AllStandard()},
    {"AlsoAllowReAddsGroupAllowRemoval",
     R"({"tools":{"alsoAllow":["exec"]}})",
     {.group_allow = {"message"}},
     {"message", "exec"}},
    {"SubagentLeafAtDefaultMaxDepth",
     "{}",
     {.subagent_depth = 1},
     Except(Concat({kSubagentAlways, kLeaf}))},
    {"SubagentNotLeafBelowMaxDepth",
     R"({"agents":{"defaults":{"subagents":{"maxSpawnDepth":2}}}})",
     {.subagent_depth = 1},
     Except(kSubagentAlways)},
    {"SubagentLeafAtMaxDepth",
     R"({"agents":{"defaults":{"subagents":{"maxSpawnDepth":2}}}})",
     {.subagent_depth = 2},
     Except(Concat({kSubagentAlways, kLeaf}))},
    {"SubagentBeyondMaxDepthIsLeaf",
     R"({"agents":{"defaults":{"subagents":{"maxSpawnDepth":2}}}})",
     {.subagent_depth = 5},
     Except(Concat({kSubagentAlways, kLeaf}))},
    {"SubagentDenyBeatsAlsoAllow",
     R"({"tools":{"alsoAllow":["cron"]}})",
     {.subagent_depth = 1},
     Except(Concat({kSubagentAlways, kLeaf}))},
    {"AliasInAllowMeansCanonical",
     R"({"tools":{"allow":["bash","Read"]}})",
     {},
     {"exec", "read_file"}},
    {"AliasInDenyMeansCanonical", R"({"tools":{"deny":["Agent"]}})", {}, Except({"spawn"})},
    {"GlobAllow",
     R"({"tools":{"allow":["mcp_github_*"]}})",
     {},
     {"mcp_github__create_issue", "mcp_github__list_prs"}},
    {"GlobDeny",
     R"({"tools":{"deny":["*_search"]}})",
     {},
     Except({"web_search", "memory_search", "skill_search"})},
    {"GlobMatchesAliases", R"({"tools":{"allow":["Web*","*ash"]}})", {}, {"web_fetch", "exec"}},
    {"GlobStar", R"({"tools":{"allow":["*"],"deny":["mcp_*"]}})", {}, NativeTools()},
    {"GroupGoclawIsNativeTools", R"({"tools":{"allow":["group:goclaw"]}})", {}, NativeTools()},
    {"UnknownToolOnlyAllowFailsClosed", R"({"tools":{"allow":["exce"]}})", {}, {}},
    {"UnregisteredDynamicGroupFailsClosed", R"({"tools":{"allow":["group:mcp"]}})", {}, {}},
    {"UnknownDenyEntryIsHarmless", R"({"tools":{"deny":["exce"]}})", {}, AllStandard()},
    {"EmptyListsMeanNoRestriction",
     R"({"tools":{"allow":[],"deny":[],"alsoAllow":[]}})",
     {},
     AllStandard()},
};

INSTANTIATE_TEST_SUITE_P(Pipeline, PipelineTest, ::testing::ValuesIn(kPipelineCases),
                         [](const auto& info) { return info.param.name; });

// Every built-in group, used as the only allow entry, yields exactly its members.
class GroupTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GroupTest, AllowExpandsToMembers) {
  PolicyEngine engine(MustParse(R"({"tools":{"allow":["group:)" + GetParam() + R"("]}})"));
  auto reg = StandardRegistry();
  const auto* members = ToolGroups::Builtin(GetParam());
  ASSERT_NE(members, nullptr);
  EXPECT_EQ(*engine.Allowed(*reg, {}), Sorted(*members));
}

INSTANTIATE_TEST_SUITE_P(Groups, GroupTest,
                         ::testing::Values("fs", "runtime", "web", "memory", "sessions", "ui",
                                           "automation", "messaging", "goclaw"));

TEST(PolicyEngineTest, SubagentListsMatchCaseInsensitively) {
  auto reg = testing::MakeRegistry({"Cron", "MEMORY_GET", "Spawn", "read_file"});
  PolicyEngine engine;
  EXPECT_THAT(*engine.Allowed(*reg, {.subagent_depth = 1}), ElementsAre("read_file"));
  // Elsewhere names are exact: "cron" does not deny "Cron".
  engine.SetConfig(MustParse(R"({"tools":{"deny":["cron"]}})"));
  EXPECT_THAT(*engine.Allowed(*reg, {}), ElementsAre("Cron", "MEMORY_GET", "Spawn", "read_file"));
}

TEST(PolicyEngineTest, SubagentListNamingAnAliasDeniesItsCanonical) {
  auto reg = testing::MakeRegistry({"schedule", "read_file"}, {{"cron", "schedule"}});
  PolicyEngine engine;
  EXPECT_THAT(*engine.Allowed(*reg, {.subagent_depth = 1}), ElementsAre("read_file"));
}

TEST(PolicyEngineTest, UnvalidatedConfigFailsClosed) {
  auto reg = StandardRegistry();
  for (const char* profile : {"mcp", "codng"}) {
    PolicyEngine engine(PolicyConfig{.global = {.base = {.profile = profile}}});
    EXPECT_THAT(*engine.Allowed(*reg, {}), IsEmpty()) << profile;
  }
  PolicyEngine engine(PolicyConfig{.global = {.base = {.allow = {"group:typo", ""}}}});
  EXPECT_THAT(*engine.Allowed(*reg, {}), IsEmpty());
}

TEST(PolicyEngineTest, AliasesFollowTheirCanonicalTool) {
  auto reg = StandardRegistry();
  PolicyEngine engine(MustParse(R"({"tools":{"allow":["exec","read_file"]}})"));
  EXPECT_THAT(*engine.AllowedWithAliases(*reg, {}),
              ElementsAre("Bash", "Read", "bash", "exec", "read_file"));
  EXPECT_TRUE(engine.IsAllowed(*reg, {}, "bash"));
  EXPECT_TRUE(engine.IsAllowed(*reg, {}, "Read"));
  EXPECT_FALSE(engine.IsAllowed(*reg, {}, "Write"));
  EXPECT_FALSE(engine.IsAllowed(*reg, {}, "write_file"));
  EXPECT_FALSE(engine.IsAllowed(*reg, {}, "no_such_tool"));
}

void AddGithubTools(Registry& reg) {
  for (const char* name : {"mcp_github__create_issue", "mcp_github__list_prs"}) {
    reg.Upsert(std::make_shared<testing::GroupedTool>(name, "mcp:github"));
  }
}

TEST(PolicyEngineTest, DynamicMcpGroupsFollowTheRegistrysTools) {
  auto reg = StandardRegistry();  // its mcp_* tools belong to no group
  PolicyEngine engine(MustParse(R"({"tools":{"allow":["group:mcp:github","message"]}})"));
  EXPECT_THAT(*engine.Allowed(*reg, {}), ElementsAre("message"));
  AddGithubTools(*reg);
  EXPECT_THAT(*engine.Allowed(*reg, {}),
              ElementsAre("mcp_github__create_issue", "mcp_github__list_prs", "message"));
  reg->Unregister("mcp_github__list_prs");
  EXPECT_THAT(*engine.Allowed(*reg, {}), ElementsAre("mcp_github__create_issue", "message"));
}

// One engine serves the runtime's registry and every agent's clone with MCP servers of its own:
// group:mcp names each registry's own servers, never another's.
TEST(PolicyEngineTest, DynamicGroupsAreIsolatedBetweenRegistries) {
  auto base = testing::MakeRegistry({"read_file", "message"});
  PolicyEngine engine(MustParse(R"({"tools":{"allow":["group:mcp"]}})"));
  auto agent_a = base->Clone();
  AddGithubTools(*agent_a);
  auto agent_b = base->Clone();
  agent_b->Upsert(std::make_shared<testing::GroupedTool>("mcp_pg__query", "mcp:pg"));
  EXPECT_THAT(*engine.Allowed(*base, {}), IsEmpty());
  EXPECT_THAT(*engine.Allowed(*agent_a, {}),
              ElementsAre("mcp_github__create_issue", "mcp_github__list_prs"));
  EXPECT_THAT(*engine.Allowed(*agent_b, {}), ElementsAre("mcp_pg__query"));
  PolicyEngine per_server(MustParse(R"({"tools":{"allow":["group:mcp:pg"]}})"));
  EXPECT_THAT(*per_server.Allowed(*agent_a, {}), IsEmpty());
  EXPECT_THAT(*per_server.Allowed(*agent_b, {}), ElementsAre("mcp_pg__query"));
}

TEST(PolicyEngineTest, DeniedMcpGroupOverridesAllow) {
  auto reg = StandardRegistry();
  AddGithubTools(*reg);
  PolicyEngine engine(MustParse(R"({"tools":{"deny":["group:mcp:github"]}})"));
  EXPECT_EQ(*engine.Allowed(*reg, {}),
            Except({"mcp_github__create_issue", "mcp_github__list_prs"}));
}

// ---- explain ----

Json ExplainOne(const PolicyEngine& engine, const Registry& reg, const PolicyQuery& q,
                const std::string& tool) {
  for (const auto& d : engine.Explain(reg, q)) {
    if (d.tool == tool) return d.ToJson();
  }
  return nullptr;
}

TEST(PolicyExplainTest, DeniedByGroupEntry) {
  auto reg = StandardRegistry();
  PolicyEngine engine(MustParse(R"({"tools":{"deny":["group:runtime"]}})"));
  EXPECT_EQ(ExplainOne(engine, *reg, {}, "exec"),
            Json::parse(R"({"tool":"exec","aliases":["Bash","bash"],"allowed":false,
              "step":"global_deny","entry":"group:runtime","source":"tools.deny",
              "note":"removed by tools.deny entry \"group:runtime\""})"));
  EXPECT_EQ(ExplainOne(engine, *reg, {}, "read_file"),
            Json::parse(R"({"tool":"read_file","aliases":["Read"],"allowed":true})"));
}

TEST(PolicyExplainTest, ReAddedToolNamesBothSteps) {
  auto reg = StandardRegistry();
  PolicyEngine engine(MustParse(R"({"tools":{"deny":["group:runtime"]},
      "agents":{"list":[{"id":"a","tools":{"alsoAllow":["bash"]}}]}})"));
  auto d = engine.Decide(*reg, {.agent_id = "a"}, "exec");
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->allowed);
  EXPECT_EQ(d->cause,
            (PolicyCause{PolicyStep::kAgentAlsoAllow, "bash", "agents.list[0].tools.alsoAllow"}));
  ASSERT_TRUE(d->overrode);
  EXPECT_EQ(*d->overrode, (PolicyCause{PolicyStep::kGlobalDeny, "group:runtime", "tools.deny"}));
}

TEST(PolicyExplainTest, EachStepIsNamed) {
  auto reg = StandardRegistry();
  PolicyEngine engine(MustParse(R"({
    "tools":{"profile":"coding","allow":["group:fs","group:runtime","group:sessions","group:memory"],
      "byProvider":{"p":{"allow":["group:fs","group:runtime","group:sessions","memory_get"],
                         "deny":["glob"]}},
      "deny":["search"]},
    "agents":{"list":[{"id":"a","tools":{"allow":["group:fs","group:runtime","group:sessions"],
      "deny":["list_files"],
      "byProvider":{"p":{"allow":["group:fs","exec","group:sessions"],"deny":["edit_file"]}}}}]}})"));
  const PolicyQuery q{.agent_id = "a",
                      .provider = "p",
                      .subagent_depth = 1,
                      .group_allow = {"group:fs", "group:sessions"}};
  struct Want {
    std::string tool;
    PolicyStep step;
    std::string entry;
    std::string source;
  };
  const Want wants[] = {
      {"message", PolicyStep::kProfile, "coding", "tools.profile"},
      {"image", PolicyStep::kGlobalAllow, "", "tools.allow"},
      {"memory_search", PolicyStep::kProviderAllow, "", "tools.byProvider.p.allow"},
      {"memory_get", PolicyStep::kAgentAllow, "", "agents.list[0].tools.allow"},
      {"process", PolicyStep::kAgentProviderAllow, "", "agents.list[0].tools.byProvider.p.allow"},
      {"exec", PolicyStep::kGroupAllow, "", "request.group_allow"},
      {"search", PolicyStep::kGlobalDeny, "search", "tools.deny"},
      {"glob", PolicyStep::kProviderDeny, "glob", "tools.byProvider.p.deny"},
      {"list_files", PolicyStep::kAgentDeny, "list_files", "agents.list[0].tools.deny"},
      {"edit_file", PolicyStep::kAgentProviderDeny, "edit_file",
       "agents.list[0].tools.byProvider.p.deny"},
      {"session_status", PolicyStep::kSubagentDeny, "session_status", "subagent deny list"},
      {"sessions_spawn", PolicyStep::kLeafDeny, "sessions_spawn", "leaf subagent deny list"},
  };
  for (const Want& w : wants) {
    auto d = engine.Decide(*reg, q, w.tool);
    ASSERT_TRUE(d) << w.tool;
    EXPECT_FALSE(d->allowed) << w.tool;
    EXPECT_EQ(d->cause, (PolicyCause{w.step, w.entry, w.source})) << w.tool;
  }
  EXPECT_THAT(*engine.Allowed(*reg, q), ElementsAre("read_file", "write_file"));
}

TEST(PolicyExplainTest, AllUnknownAllowListSaysSo) {
  auto reg = StandardRegistry();
  PolicyEngine engine(MustParse(R"({"tools":{"allow":["exce","group:mcp"]}})"));
  for (const auto& d : engine.Explain(*reg, {})) {
    EXPECT_FALSE(d.allowed) << d.tool;
    EXPECT_TRUE(d.cause.no_entry_matched) << d.tool;
  }
  EXPECT_EQ(ExplainOne(engine, *reg, {}, "message")["note"],
            "no entry of tools.allow matches a registered tool, so it allows nothing");
  // One matching entry is enough for the list to be an ordinary restriction.
  engine.SetConfig(MustParse(R"({"tools":{"allow":["exce","message"]}})"));
  auto d = engine.Decide(*reg, {}, "exec");
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->cause.no_entry_matched);
  EXPECT_EQ(d->cause.Describe(), "not matched by tools.allow");
}

TEST(PolicyExplainTest, CoversEveryRegisteredToolInOrder) {
  auto reg = StandardRegistry();
  PolicyEngine engine;
  Names tools;
  for (const auto& d : engine.Explain(*reg, {})) tools.push_back(d.tool);
  EXPECT_EQ(tools, reg->List());
  EXPECT_FALSE(engine.Decide(*reg, {}, "no_such_tool"));
}

// ---- caching and invalidation ----

TEST(PolicyCacheTest, RepeatedQueryHitsTheCache) {
  auto reg = StandardRegistry();
  PolicyEngine engine(MustParse(R"({"tools":{"profile":"coding"}})"));
  auto first = engine.Allowed(*reg, {.agent_id = "a", .provider = "p"});
  EXPECT_EQ(first.get(), engine.Allowed(*reg, {.agent_id = "a", .provider = "p"}).get());
  EXPECT_NE(first.get(), engine.Allowed(*reg, {.agent_id = "a", .provider = "q"}).get());
}

TEST(PolicyCacheTest, DepthsOfTheSameClassShareAnEntry) {
  auto reg = StandardRegistry();
  PolicyEngine engine(MustParse(R"({"agents":{"defaults":{"subagents":{"maxSpawnDepth":2}}}})"));
  EXPECT_EQ(engine.Allowed(*reg, {.subagent_depth = 2}).get(),
            engine.Allowed(*reg, {.subagent_depth = 7}).get());
  EXPECT_NE(engine.Allowed(*reg, {.subagent_depth = 1}).get(),
            engine.Allowed(*reg, {.subagent_depth = 2}).get());
}

TEST(PolicyCacheTest, SetConfigInvalidates) {
  auto reg = StandardRegistry();
  PolicyEngine engine(MustParse(R"({"tools":{"profile":"minimal"}})"));
  EXPECT_THAT(*engine.Allowed(*reg, {}), ElementsAre("session_status"));
  engine.SetConfig(MustParse(R"({"tools":{"profile":"messaging"}})"));
  EXPECT_EQ(*engine.Allowed(*reg, {}), Sorted(kMessaging));
}

TEST(PolicyCacheTest, AgentPolicyAtRuntime) {
  auto reg = StandardRegistry();
  PolicyEngine engine(MustParse(R"({"tools":{"deny":["cron"]}})"));
  EXPECT_EQ(*engine.Allowed(*reg, {.agent_id = "coder"}), Except({"cron"}));

  std::vector<std::string> warnings;
  auto scope = ScopePolicy::FromJson(Json::parse(R"({"allow":["group:fs","cron"],
      "alsoAllow":["cron"]})"),
                                     "store.tools_config[coder]", true, &warnings);
  ASSERT_TRUE(scope);
  ASSERT_TRUE(engine.SetAgentPolicy("coder", *scope, &warnings));
  EXPECT_THAT(warnings, ::testing::Contains(::testing::HasSubstr(
                            "store.tools_config[coder].alsoAllow[0] \"cron\" re-adds what "
                            "tools.deny[0] \"cron\" removes")));
  EXPECT_EQ(
      *engine.Allowed(*reg, {.agent_id = "coder"}),
      Sorted({"read_file", "write_file", "list_files", "edit_file", "search", "glob", "cron"}));
  EXPECT_EQ(*engine.Allowed(*reg, {.agent_id = "other"}), Except({"cron"}));

  EXPECT_TRUE(engine.RemoveAgentPolicy("coder"));
  EXPECT_FALSE(engine.RemoveAgentPolicy("coder"));
  EXPECT_EQ(*engine.Allowed(*reg, {.agent_id = "coder"}), Except({"cron"}));
}

TEST(PolicyCacheTest, SetAgentPolicyRejectsInvalidScope) {
  PolicyEngine engine;
  ScopePolicy scope{.base = {.allow = {"group:typo"}}};
  auto st = engine.SetAgentPolicy("a", scope, nullptr);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().for_model,
            "agents[a].tools.allow[0]: unknown group \"group:typo\" (known: group:automation, "
            "group:fs, group:goclaw, group:memory, group:messaging, group:runtime, "
            "group:sessions, group:ui, group:web, group:mcp, group:mcp:<server>)");
  EXPECT_TRUE(engine.config().agents.empty());
}

TEST(PolicyCacheTest, RegistryChangesInvalidate) {
  auto reg = testing::MakeRegistry({"exec", "read_file"});
  PolicyEngine engine(MustParse(R"({"tools":{"allow":["mcp_*","bash"]}})"));
  EXPECT_THAT(*engine.Allowed(*reg, {}), IsEmpty());
  ASSERT_TRUE(reg->Register(std::make_shared<testing::CountingTool>("mcp_x__y")));
  EXPECT_THAT(*engine.Allowed(*reg, {}), ElementsAre("mcp_x__y"));
  ASSERT_TRUE(reg->RegisterAlias("bash", "exec"));
  EXPECT_THAT(*engine.Allowed(*reg, {}), ElementsAre("exec", "mcp_x__y"));
  ASSERT_TRUE(reg->Unregister("mcp_x__y"));
  EXPECT_THAT(*engine.Allowed(*reg, {}), ElementsAre("exec"));
}

TEST(PolicyCacheTest, TwoRegistriesWithDifferentToolsDoNotShareResults) {
  auto small = testing::MakeRegistry({"exec"});
  auto big = testing::MakeRegistry({"exec", "message"});
  PolicyEngine engine;
  EXPECT_THAT(*engine.Allowed(*small, {}), ElementsAre("exec"));
  EXPECT_THAT(*engine.Allowed(*big, {}), ElementsAre("exec", "message"));
}

TEST(PolicyCacheTest, ResultOutlivesReload) {
  auto reg = StandardRegistry();
  PolicyEngine engine(MustParse(R"({"tools":{"profile":"minimal"}})"));
  auto held = engine.Allowed(*reg, {});
  engine.SetConfig({});
  EXPECT_THAT(*held, ElementsAre("session_status"));
}

}  // namespace
}  // namespace clawtools
