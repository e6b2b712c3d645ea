// The store on both backends (PostgreSQL variants skipped unless CLAWTOOLS_TEST_PG_URL is set),
// and the loader end to end: real commands through a CommandLauncher and a Registry with the
// ScrubFilter.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "../store/test_database.h"
#include "core/registry.h"
#include "core/scrub_filter.h"
#include "custom_tools/custom_tool_loader.h"
#include "custom_tools/custom_tool_store.h"
#include "execpolicy/command_analysis.h"

namespace clawtools::custom_tools {
namespace {

using store::Backend;

constexpr char kSecret[] = "s3cr3t-T0ken-value-9f8e7d";

crypto::Key TestKey(char fill = 'k') {
  return *crypto::ParseKey(std::string(64, fill == 'k' ? 'a' : 'b'));
}

CustomToolDef Def(std::string name, std::string command, std::optional<std::string> agent = {}) {
  CustomToolDef d;
  d.name = std::move(name);
  d.description = "test tool";
  d.parameters = Json::parse(
      R"({"type":"object","properties":{"msg":{"type":"string"},"dir":{"type":"string"}}})");
  d.command = std::move(command);
  d.agent_id = std::move(agent);
  d.timeout_seconds = 10;
  return d;
}

// Stands for a built-in tool.
class SimpleToolStub final : public SimpleTool {
 public:
  SimpleToolStub() : SimpleTool("builtin_x", "a built-in", Json{{"type", "object"}}) {}
  Result Execute(const CallContext&, const Json&) const override { return Result::Text("builtin"); }
};

// The exec command analysis as the only gate: deny rules refuse, everything else runs.
class AnalysisGate final : public CommandGate {
 public:
  GateVerdict DoCheck(const CallContext&, const CommandCheck& check) const override {
    execpolicy::AnalysisOptions options;
    options.provided_variables.assign(check.provided_env.begin(), check.provided_env.end());
    auto a = execpolicy::AnalyzeCommand(check.command, options);
    if (a.decision == execpolicy::Decision::kDeny) return {false, a.rule, a.reason};
    return {true, "", ""};
  }
};

class CustomToolsTest : public store::testing::BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped()) return;
    workspace_ = std::filesystem::temp_directory_path() /
                 ("ct-ws-" + std::to_string(getpid()) + "-" + std::to_string(counter_++));
    std::filesystem::create_directories(workspace_);
    tools_ = std::make_shared<CustomToolStore>(*store_, TestKey());
  }
  void TearDown() override {
    if (!workspace_.empty()) std::filesystem::remove_all(workspace_);
    BackendTest::TearDown();
  }

  std::unique_ptr<Registry> MakeRegistry() {
    auto r = std::make_unique<Registry>(RegistryOptions{.workspace = workspace_.string()});
    r->AddFilter(std::make_shared<ScrubFilter>(scrubber_));
    return r;
  }
  std::shared_ptr<const CommandLauncher> Launcher() {
    return std::make_shared<CommandLauncher>(std::make_shared<AnalysisGate>(), nullptr, nullptr,
                                             ExecSettings{});
  }
  static CallOutcome Call(const Registry& r, std::string tool, Json args, std::string agent = {}) {
    CallRequest req;
    req.tool = std::move(tool);
    req.args = std::move(args);
    req.agent_id = std::move(agent);
    return r.Execute(req);
  }

  static inline int counter_ = 0;
  std::filesystem::path workspace_;
  std::shared_ptr<CustomToolStore> tools_;
  std::shared_ptr<Scrubber> scrubber_ = std::make_shared<Scrubber>();
};

TEST_P(CustomToolsTest, Crud) {
  auto v0 = tools_->Version();
  ASSERT_TRUE(v0.has_value());
  auto created = tools_->Create(Def("hello", "echo hi {{.msg}}"));
  ASSERT_TRUE(created.has_value()) << created.error().log_message();
  EXPECT_FALSE(created->id.empty());
  EXPECT_GT(*tools_->Version(), *v0);

  auto dup = tools_->Create(Def("hello", "echo again"));
  ASSERT_FALSE(dup.has_value());
  EXPECT_EQ(dup.error().code, ErrorCode::kAlreadyExists);
  ASSERT_TRUE(tools_->Create(Def("hello", "echo agent", "agent-a")).has_value());
  EXPECT_EQ(tools_->Create(Def("hello", "x", "agent-a")).error().code, ErrorCode::kAlreadyExists);

  auto got = tools_->Get(created->id);
  ASSERT_TRUE(got.has_value() && got->has_value());
  EXPECT_EQ((*got)->command, "echo hi {{.msg}}");
  EXPECT_EQ((*got)->parameters["properties"].size(), 2u);
  EXPECT_FALSE((*got)->agent_id.has_value());

  CustomToolDef changed = **got;
  changed.command = "echo changed";
  changed.enabled = false;
  auto updated = tools_->Update(changed, false);
  ASSERT_TRUE(updated.has_value()) << updated.error().log_message();
  EXPECT_EQ(updated->command, "echo changed");
  EXPECT_FALSE(updated->enabled);

  auto list = tools_->List();
  ASSERT_TRUE(list.has_value());
  ASSERT_EQ(list->size(), 2u);
  EXPECT_FALSE((*list)[0].agent_id.has_value());  // global first

  ASSERT_TRUE(tools_->Remove(created->id).has_value());
  EXPECT_EQ(tools_->Remove(created->id).error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(tools_->Get(created->id)->has_value());
}

TEST_P(CustomToolsTest, EnvWithoutKeyIsRefused) {
  CustomToolStore keyless(*store_, std::nullopt);
  CustomToolDef d = Def("needs_key", "echo x");
  d.env["API_KEY"] = kSecret;
  auto r = keyless.Create(d);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().for_model.find("CLAWTOOLS_ENCRYPTION_KEY"), std::string::npos);
  EXPECT_TRUE(keyless.List()->empty());
  d.env.clear();
  EXPECT_TRUE(keyless.Create(d).has_value());  // no secret, no key needed
}

TEST_P(CustomToolsTest, PlaintextNeverStored) {
  CustomToolDef d = Def("with_secret", "echo x");
  d.env["API_KEY"] = kSecret;
  auto created = tools_->Create(d);
  ASSERT_TRUE(created.has_value()) << created.error().log_message();
  EXPECT_TRUE(created->env.at("API_KEY").starts_with("aes-gcm:"));
  EXPECT_EQ(tools_->DecryptEnv(*created)->at("API_KEY"), kSecret);

  // Every column of every row, as text.
  auto rows = store_->Query(
      "SELECT id, name, description, parameters, command, working_dir, env, agent_id FROM "
      "custom_tools");
  ASSERT_TRUE(rows.has_value());
  ASSERT_EQ(rows->size(), 1u);
  for (size_t i = 0; i < rows->front().size(); ++i)
    EXPECT_EQ(rows->front().Text(i).find(kSecret), std::string::npos) << "column " << i;

  if (backend() == Backend::kSqlite) {
    store_.reset();  // checkpoint the WAL so the main file holds everything
    for (std::string suffix : {"", "-wal", "-journal"}) {
      std::ifstream in(url() + suffix, std::ios::binary);
      if (!in) continue;
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      EXPECT_EQ(bytes.find(kSecret), std::string::npos) << url() + suffix;
      if (suffix.empty()) {
        EXPECT_NE(bytes.find("with_secret"), std::string::npos);
      }
    }
  }
}

TEST_P(CustomToolsTest, RotateKeyReencryptsEverything) {
  CustomToolDef d = Def("rot", "echo x");
  d.env = {{"A_KEY", "first-secret-value"}, {"B_KEY", "second-secret-value"}};
  ASSERT_TRUE(tools_->Create(d).has_value());
  ASSERT_TRUE(tools_->Create(Def("plain", "echo y")).has_value());
  auto n = tools_->RotateKey(TestKey('b'));
  ASSERT_TRUE(n.has_value()) << n.error().log_message();
  EXPECT_EQ(*n, 2);

  CustomToolStore old_key(*store_, TestKey());
  CustomToolStore new_key(*store_, TestKey('b'));
  auto list = new_key.List();
  ASSERT_TRUE(list.has_value());
  const CustomToolDef& rot = list->at(1).name == "rot" ? list->at(1) : list->at(0);
  EXPECT_EQ(new_key.DecryptEnv(rot)->at("B_KEY"), "second-secret-value");
  EXPECT_EQ(tools_->DecryptEnv(rot)->at("A_KEY"), "first-secret-value");  // switched keys
  EXPECT_EQ(old_key.DecryptEnv(rot).error().code, ErrorCode::kPermissionDenied);
}

TEST_P(CustomToolsTest, EchoedSecretReachesTheModelRedacted) {
  // Through a script: the command analysis itself denies a literal `echo $API_KEY`.
  std::ofstream(workspace_ / "show.sh") << "echo \"token=$API_KEY\" \"$1\"\n";
  CustomToolDef d = Def("leaky", "sh show.sh {{.msg}}");
  d.env["API_KEY"] = kSecret;
  ASSERT_TRUE(tools_->Create(d).has_value());
  auto registry = MakeRegistry();
  CustomToolLoader loader(tools_, *registry, Launcher(), scrubber_);
  ASSERT_TRUE(loader.Reload().has_value());
  auto out = Call(*registry, "leaky", {{"msg", "hello"}});
  EXPECT_FALSE(out.result.is_error) << out.result.for_llm;
  EXPECT_EQ(out.result.for_llm.find(kSecret), std::string::npos) << out.result.for_llm;
  EXPECT_NE(out.result.for_llm.find("[REDACTED]"), std::string::npos) << out.result.for_llm;
  EXPECT_NE(out.result.for_llm.find("hello"), std::string::npos) << out.result.for_llm;
}

// A tool may print its own variables (their values are scrubbed), not anyone else's: the
// analysis exempts exactly the names the tool provides.
TEST_P(CustomToolsTest, ToolMayEchoItsOwnVariablesOnly) {
  CustomToolDef own = Def("own", "echo \"token=$API_KEY\" {{.msg}}; printenv API_KEY");
  own.env["API_KEY"] = kSecret;
  ASSERT_TRUE(tools_->Create(own).has_value());
  CustomToolDef other = Def("other", "echo \"$OPENAI_API_KEY\" {{.msg}}");
  other.env["API_KEY"] = kSecret;
  ASSERT_TRUE(tools_->Create(other).has_value());
  auto registry = MakeRegistry();
  CustomToolLoader loader(tools_, *registry, Launcher(), scrubber_);
  ASSERT_TRUE(loader.Reload().has_value());
  auto out = Call(*registry, "own", {{"msg", "hello"}});
  EXPECT_FALSE(out.result.is_error) << out.result.for_llm;
  EXPECT_EQ(out.result.for_llm.find(kSecret), std::string::npos) << out.result.for_llm;
  EXPECT_NE(out.result.for_llm.find("token=[REDACTED]"), std::string::npos) << out.result.for_llm;
  out = Call(*registry, "other", {{"msg", "hello"}});
  EXPECT_EQ(out.result.error_code, ErrorCode::kPermissionDenied) << out.result.for_llm;
  EXPECT_NE(out.result.for_llm.find("secret_variable"), std::string::npos) << out.result.for_llm;
}

TEST_P(CustomToolsTest, DangerousRenderedCommandIsBlocked) {
  auto marker = workspace_ / "still-here";
  std::ofstream(marker) << "x";
  ASSERT_TRUE(tools_->Create(Def("cleanup", "rm -rf {{.dir}}")).has_value());
  auto registry = MakeRegistry();
  CustomToolLoader loader(tools_, *registry, Launcher(), scrubber_);
  ASSERT_TRUE(loader.Reload().has_value());
  auto out = Call(*registry, "cleanup", {{"dir", "/"}});
  EXPECT_TRUE(out.result.is_error);
  EXPECT_EQ(out.result.error_code, ErrorCode::kPermissionDenied) << out.result.for_llm;
  EXPECT_NE(out.result.for_llm.find("denied"), std::string::npos) << out.result.for_llm;
  // Quoting keeps an injection attempt a plain argument: nothing else runs.
  ASSERT_TRUE(tools_->Create(Def("show", "printf '%s' {{.msg}}")).has_value());
  ASSERT_TRUE(loader.Reload().has_value());
  out = Call(*registry, "show", {{"msg", "x'; rm -rf still-here; echo '"}});
  EXPECT_FALSE(out.result.is_error) << out.result.for_llm;
  EXPECT_TRUE(std::filesystem::exists(marker));
}

TEST_P(CustomToolsTest, NulArgumentIsRejectedAtCallTime) {
  ASSERT_TRUE(tools_->Create(Def("show", "printf '%s' {{.msg}}")).has_value());
  auto registry = MakeRegistry();
  CustomToolLoader loader(tools_, *registry, Launcher(), scrubber_);
  ASSERT_TRUE(loader.Reload().has_value());
  auto out = Call(*registry, "show", {{"msg", std::string("a\0b", 3)}});
  EXPECT_TRUE(out.result.is_error);
  EXPECT_NE(out.result.for_llm.find("NUL"), std::string::npos) << out.result.for_llm;
}

TEST_P(CustomToolsTest, PerAgentIsolation) {
  ASSERT_TRUE(tools_->Create(Def("shared", "echo global")).has_value());
  ASSERT_TRUE(tools_->Create(Def("mine", "echo agent-a-tool", "agent-a")).has_value());
  ASSERT_TRUE(tools_->Create(Def("shared", "echo overridden", "agent-a")).has_value());
  auto registry = MakeRegistry();
  CustomToolLoader loader(tools_, *registry, Launcher(), scrubber_);
  ASSERT_TRUE(loader.Reload().has_value());

  auto a = loader.ResolveForAgent("agent-a");
  auto b = loader.ResolveForAgent("agent-b");
  EXPECT_EQ(b.get(), registry.get());  // no tools of its own: no clone
  EXPECT_NE(a.get(), registry.get());
  EXPECT_EQ(loader.ResolveForAgent("agent-a").get(), a.get());  // cached
  EXPECT_NE(a->Get("mine"), nullptr);
  EXPECT_EQ(b->Get("mine"), nullptr);
  EXPECT_EQ(registry->Get("mine"), nullptr);
  EXPECT_NE(Call(*a, "shared", Json::object()).result.for_llm.find("overridden"),
            std::string::npos);
  EXPECT_NE(Call(*b, "shared", Json::object()).result.for_llm.find("global"), std::string::npos);
}

TEST_P(CustomToolsTest, BuiltinsAreNeverShadowed) {
  auto registry = MakeRegistry();
  ASSERT_TRUE(registry->Register(std::make_shared<SimpleToolStub>()).has_value());
  CustomToolLoader loader(tools_, *registry, Launcher(), scrubber_);
  EXPECT_TRUE(loader.IsBuiltin("builtin_x"));
  EXPECT_FALSE(loader.IsBuiltin("custom_y"));
  // A definition stored behind validation's back (e.g. before the built-in existed) is skipped.
  ASSERT_TRUE(tools_->Create(Def("builtin_x", "echo custom")).has_value());
  ASSERT_TRUE(tools_->Create(Def("builtin_x", "echo custom", "agent-a")).has_value());
  auto warnings = loader.Reload();
  ASSERT_TRUE(warnings.has_value());
  EXPECT_FALSE(warnings->empty());
  EXPECT_EQ(Call(*registry, "builtin_x", Json::object()).result.for_llm, "builtin");
  EXPECT_EQ(Call(*loader.ResolveForAgent("agent-a"), "builtin_x", Json::object()).result.for_llm,
            "builtin");
}

TEST_P(CustomToolsTest, LiveReloadInProcess) {
  auto registry = MakeRegistry();
  CustomToolLoader loader(tools_, *registry, Launcher(), scrubber_);
  InProcessNotifier notifier;
  loader.Subscribe(notifier);
  ASSERT_TRUE(loader.Reload().has_value());
  EXPECT_EQ(loader.ResolveForAgent("agent-a").get(), registry.get());

  auto created = tools_->Create(Def("fresh", "echo fresh"));
  ASSERT_TRUE(created.has_value());
  ASSERT_TRUE(tools_->Create(Def("own", "echo own", "agent-a")).has_value());
  notifier.Publish();
  EXPECT_NE(registry->Get("fresh"), nullptr);
  EXPECT_NE(loader.ResolveForAgent("agent-a")->Get("own"), nullptr);

  ASSERT_TRUE(tools_->Remove(created->id).has_value());
  notifier.Publish();
  EXPECT_EQ(registry->Get("fresh"), nullptr);
  EXPECT_EQ(loader.ResolveForAgent("agent-a")->Get("fresh"), nullptr);
}

// Two "gateways" on one database: a change through one store reaches the other's loader
// through the database (LISTEN/NOTIFY on PostgreSQL, the polled counter on SQLite).
TEST_P(CustomToolsTest, ReloadAcrossProcessesWithinASecond) {
  auto other_store = OpenAnother();
  auto other_tools = std::make_shared<CustomToolStore>(*other_store, TestKey());
  auto other_registry = MakeRegistry();
  CustomToolLoader other_loader(other_tools, *other_registry, Launcher(), scrubber_);
  ASSERT_TRUE(other_loader.Reload().has_value());
  std::unique_ptr<EventNotifier> notifier;
  if (backend() == Backend::kPostgres) {
    auto pg = std::make_unique<PgListenNotifier>(url());
    ASSERT_TRUE(pg->WaitUntilListening(std::chrono::seconds(10)));
    notifier = std::move(pg);
  } else {
    notifier = std::make_unique<VersionPollNotifier>(*other_tools, std::chrono::milliseconds(100));
  }
  other_loader.Subscribe(*notifier);

  ASSERT_TRUE(tools_->Create(Def("remote", "echo remote {{.msg}}")).has_value());
  auto start = std::chrono::steady_clock::now();
  while (other_registry->Get("remote") == nullptr &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(1)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_NE(other_registry->Get("remote"), nullptr) << "not visible within a second";
  auto out = Call(*other_registry, "remote", {{"msg", "ok"}});
  EXPECT_NE(out.result.for_llm.find("remote ok"), std::string::npos) << out.result.for_llm;
  notifier.reset();  // before the loader it calls into
}

CLAWTOOLS_INSTANTIATE_BACKENDS(CustomToolsTest);

}  // namespace
}  // namespace clawtools::custom_tools
