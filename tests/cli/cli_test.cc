// End-to-end tests of the CLI contract: the real binary, run as a user would run it.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

struct RunResult {
  int code = -1;
  std::string out;
};

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("clawtools-cli-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "ws");
    home_ = (dir_ / "home").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs the binary through sh; stdout captured, stderr to a file.
  RunResult Exec(const std::string& args, const std::string& stdin_text = "") {
    std::string in = (dir_ / "stdin").string();
    std::ofstream(in) << stdin_text;
    std::string cmd = "CLAWTOOLS_HOME=" + Quote(home_) + " " + Quote(CLAWTOOLS_BIN_PATH) + " " + args +
                      " < " + Quote(in) + " 2> " + Quote((dir_ / "stderr").string());
    RunResult r;
    FILE* p = popen(cmd.c_str(), "r");
    std::array<char, 65536> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
  }
  std::string Stderr() {
    std::ifstream f(dir_ / "stderr");
    return std::string(std::istreambuf_iterator<char>(f), {});
  }
  std::string Ws() { return Quote((dir_ / "ws").string()); }

  fs::path dir_;
  std::string home_;
};

TEST_F(CliTest, Version) {
  auto r = Exec("--version");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("clawtools ", 0), 0u) << r.out;
}

TEST_F(CliTest, CallPrintsOneJsonObject) {
  auto r = Exec("call write_file '{\"path\":\"a.txt\",\"content\":\"hello\"}' --workspace " + Ws());
  ASSERT_EQ(r.code, 0) << Stderr();
  Json j = Json::parse(r.out);
  EXPECT_EQ(j["tool"], "write_file");
  EXPECT_FALSE(j["is_error"].get<bool>()) << r.out;
  EXPECT_TRUE(j["duration_ms"].is_number());
  EXPECT_TRUE(j.contains("for_llm"));
  EXPECT_TRUE(j.contains("for_user"));
  std::ifstream f(dir_ / "ws" / "a.txt");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(f), {}), "hello");
}

TEST_F(CliTest, CallReadsArgumentsFromStdin) {
  std::ofstream(dir_ / "ws" / "b.txt") << "line one\n";
  auto r = Exec("call read_file --workspace " + Ws(), "{\"path\":\"b.txt\"}");
  ASSERT_EQ(r.code, 0) << Stderr();
  Json j = Json::parse(r.out);
  EXPECT_FALSE(j["is_error"].get<bool>());
  EXPECT_NE(j["for_llm"].get<std::string>().find("line one"), std::string::npos);
}

TEST_F(CliTest, ToolErrorsStillExitZero) {
  auto r = Exec("call read_file '{\"path\":\"missing.txt\"}' --workspace " + Ws());
  ASSERT_EQ(r.code, 0);
  EXPECT_TRUE(Json::parse(r.out)["is_error"].get<bool>());
  r = Exec("call no_such_tool '{}' --workspace " + Ws());
  ASSERT_EQ(r.code, 0);
  Json j = Json::parse(r.out);
  EXPECT_TRUE(j["is_error"].get<bool>());
  EXPECT_EQ(j["for_llm"], "unknown tool: no_such_tool");
}

TEST_F(CliTest, InvalidArgumentsNameTheField) {
  auto r = Exec("call read_file '{\"path\":5}' --workspace " + Ws());
  ASSERT_EQ(r.code, 0);
  Json j = Json::parse(r.out);
  EXPECT_TRUE(j["is_error"].get<bool>());
  EXPECT_NE(j["for_llm"].get<std::string>().find("args.path"), std::string::npos) << j.dump();
}

TEST_F(CliTest, UsageErrorsExitTwo) {
  EXPECT_EQ(Exec("call read_file '{not json' --workspace " + Ws()).code, 2);
  EXPECT_EQ(Exec("call read_file '[1]' --workspace " + Ws()).code, 2);
  EXPECT_EQ(Exec("call read_file '{}' --no-such-flag").code, 2);
  EXPECT_EQ(Exec("call").code, 2);
  EXPECT_EQ(Exec("frobnicate").code, 2);
  EXPECT_EQ(Exec("call read_file '{}' --peer-kind martian").code, 2);
  EXPECT_EQ(Exec("tools --format xml").code, 2);
}

TEST_F(CliTest, BadConfigNamesTheKey) {
  std::ofstream(dir_ / "bad.json") << "{\n // comment\n \"tools\": {\"alsoAlow\": [\"exec\"]}}";
  auto r = Exec("tools --config " + Quote((dir_ / "bad.json").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(Stderr().find("tools.alsoAlow: unknown key"), std::string::npos) << Stderr();
}

TEST_F(CliTest, ToolsListsDefinitionsInBothFormats) {
  auto r = Exec("tools --workspace " + Ws());
  ASSERT_EQ(r.code, 0) << Stderr();
  Json defs = Json::parse(r.out);
  ASSERT_TRUE(defs.is_array());
  bool found = false;
  for (const auto& d : defs) found = found || d["function"]["name"] == "read_file";
  EXPECT_TRUE(found);
  r = Exec("tools --format anthropic --workspace " + Ws());
  ASSERT_EQ(r.code, 0);
  defs = Json::parse(r.out);
  ASSERT_FALSE(defs.empty());
  EXPECT_TRUE(defs[0].contains("input_schema"));
}

TEST_F(CliTest, CallOutputIsScrubbed) {
  std::ofstream(dir_ / "ws" / "env.txt")
      << "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD\n"
      << "github ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij\n";
  auto r = Exec("call read_file '{\"path\":\"env.txt\"}' --workspace " + Ws());
  ASSERT_EQ(r.code, 0);
  std::string out = Json::parse(r.out)["for_llm"];
  EXPECT_EQ(out.find("sk-proj-abcdef"), std::string::npos) << out;
  EXPECT_EQ(out.find("ghp_ABCDEF"), std::string::npos) << out;
  EXPECT_NE(out.find("[REDACTED]"), std::string::npos);
}

TEST_F(CliTest, ScrubStreamsFilesAndStdin) {
  std::string text = "token: ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij and a uuid 123e4567-e89b-12d3-a456-426614174000\n";
  auto r = Exec("scrub", text);
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.find("ghp_"), std::string::npos);
  EXPECT_NE(r.out.find("123e4567-e89b-12d3-a456-426614174000"), std::string::npos);
  std::ofstream big(dir_ / "big.txt");
  for (int i = 0; i < 20000; ++i) big << "line " << i << " AKIAIOSFODNN7EXAMPLE ok\n";
  big.close();
  r = Exec("scrub " + Quote((dir_ / "big.txt").string()));
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.find("AKIAIOSFODNN7EXAMPLE"), std::string::npos);
  EXPECT_NE(r.out.find("line 19999"), std::string::npos);
  EXPECT_EQ(Exec("scrub /no/such/file").code, 1);
}

TEST_F(CliTest, RateLimitFromConfig) {
  std::ofstream(dir_ / "rl.json") << R"({"tools": {"rate_limits": [{"scope": "session", "per_hour": 1, "burst": 1}]}})";
  // One process = one limiter; within it the second call in the same session is refused.
  // (Cross-process limits belong to the gateway; this checks the config reaches the pipeline.)
  auto r = Exec("call list_files '{}' --session s1 --config " + Quote((dir_ / "rl.json").string()) +
                " --workspace " + Ws());
  ASSERT_EQ(r.code, 0) << Stderr();
  EXPECT_FALSE(Json::parse(r.out)["is_error"].get<bool>()) << r.out;
}

TEST_F(CliTest, PolicyFromConfigIsEnforcedAndExplained) {
  std::ofstream(dir_ / "p.json") << R"({
    // coding profile minus writes for the agent "reviewer"
    "tools": {"profile": "coding"},
    "agents": {"list": [{"id": "reviewer", "tools": {"deny": ["write_file", "edit_file"]}}]}
  })";
  std::string cfg = " --config " + Quote((dir_ / "p.json").string()) + " --workspace " + Ws();
  auto r = Exec("call write_file '{\"path\":\"x\",\"content\":\"y\"}' --agent reviewer" + cfg);
  ASSERT_EQ(r.code, 0) << Stderr();
  Json j = Json::parse(r.out);
  EXPECT_TRUE(j["is_error"].get<bool>());
  EXPECT_NE(j["for_llm"].get<std::string>().find("not allowed by policy"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir_ / "ws" / "x"));
  // The alias follows its canonical tool.
  r = Exec("call Write '{\"path\":\"x\",\"content\":\"y\"}' --agent reviewer" + cfg);
  EXPECT_TRUE(Json::parse(r.out)["is_error"].get<bool>());

  r = Exec("tools --agent reviewer" + cfg);
  ASSERT_EQ(r.code, 0);
  std::string names;
  for (const auto& d : Json::parse(r.out)) names += d["function"]["name"].get<std::string>() + ",";
  EXPECT_EQ(names.find("write_file"), std::string::npos) << names;
  EXPECT_NE(names.find("read_file"), std::string::npos) << names;

  r = Exec("tools --explain --agent reviewer" + cfg);
  ASSERT_EQ(r.code, 0);
  bool explained = false;
  for (const auto& d : Json::parse(r.out)) {
    if (d["tool"] == "write_file") {
      EXPECT_FALSE(d["allowed"].get<bool>());
      EXPECT_EQ(d["step"], "agent_deny");
      explained = true;
    }
  }
  EXPECT_TRUE(explained) << r.out;
}

TEST_F(CliTest, UnknownGroupInConfigIsAnError) {
  std::ofstream(dir_ / "g.json") << R"({"tools": {"allow": ["group:filesystem"]}})";
  auto r = Exec("tools --config " + Quote((dir_ / "g.json").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(Stderr().find("group:filesystem"), std::string::npos) << Stderr();
}

TEST_F(CliTest, AgentPolicyFromTheStore) {
  std::string db = " --db " + Quote((dir_ / "store.db").string()) + " --workspace " + Ws();
  auto r = Exec("agents set coder --type open --tools '{\"deny\":[\"group:fs\",\"group:runtime\"],\"alsoAllow\":[\"read_file\"]}'" + db);
  ASSERT_EQ(r.code, 0) << Stderr();
  EXPECT_EQ(Json::parse(r.out)["tools"]["deny"][0], "group:fs");
  r = Exec("tools --agent coder" + db);
  ASSERT_EQ(r.code, 0) << Stderr();
  Json defs = Json::parse(r.out);
  ASSERT_EQ(defs.size(), 1u) << r.out;
  EXPECT_EQ(defs[0]["function"]["name"], "read_file");
  // Other agents are untouched.
  EXPECT_GT(Json::parse(Exec("tools --agent other" + db).out).size(), 1u);
  // A policy the engine would refuse is refused before it reaches the store.
  EXPECT_EQ(Exec("agents set coder --tools '{\"allow\":[\"group:typo\"]}'" + db).code, 2);
  EXPECT_EQ(Json::parse(Exec("agents list" + db).out).size(), 1u);
  // Clearing the store policy restores the default.
  ASSERT_EQ(Exec("agents set coder --tools ''" + db).code, 0);
  EXPECT_GT(Json::parse(Exec("tools --agent coder" + db).out).size(), 1u);
  EXPECT_EQ(Exec("agents rm coder" + db).code, 0);
  EXPECT_EQ(Exec("agents show coder" + db).code, 1);
}

}  // namespace
