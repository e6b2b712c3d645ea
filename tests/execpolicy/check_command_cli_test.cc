// clawtools check-command, run as a user would: JSON on stdout, exit 0 for any decision.
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

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct CliRun {
  int code = -1;
  std::string out;
};

class CheckCommandCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("clawtools-check-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  CliRun Exec(const std::string& args) {
    std::string cmd = "CLAWTOOLS_HOME=" + Quote((dir_ / "home").string()) + " " +
                      Quote(CLAWTOOLS_BIN_PATH) + " check-command " + args + " 2>/dev/null";
    CliRun r;
    FILE* p = popen(cmd.c_str(), "r");
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
  }

  fs::path dir_;
};

TEST_F(CheckCommandCliTest, DenyPrintsRuleAndCanonicalMatch) {
  CliRun r = Exec(Quote("X=rm; $X -Rf${IFS}/"));
  ASSERT_EQ(r.code, 0) << r.out;
  Json j = Json::parse(r.out);
  EXPECT_EQ(j["decision"], "deny");
  EXPECT_EQ(j["rule"], "destructive_fs.rm_recursive_critical");
  EXPECT_EQ(j["matched"], "rm -Rf /");
  EXPECT_FALSE(j["reason"].get<std::string>().empty());
  EXPECT_TRUE(j["commands"].is_array());
}

TEST_F(CheckCommandCliTest, AllowAndAsk) {
  CliRun r = Exec(Quote("grep 'mount' file"));
  ASSERT_EQ(r.code, 0);
  Json j = Json::parse(r.out);
  EXPECT_EQ(j["decision"], "allow");
  EXPECT_TRUE(j["rule"].is_null());
  r = Exec(Quote("pip install requests"));
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(Json::parse(r.out)["decision"], "ask");
}

TEST_F(CheckCommandCliTest, ConfigAndAgentSwitchGroups) {
  std::ofstream(dir_ / "c.json") << R"({
    // global: package installs are fine; the agent "ops" may also use sudo, "net" asks for network
    "tools": { "exec": { "deny_groups_disabled": ["package_install"] } },
    "agents": { "list": [
      { "id": "ops", "tools": { "exec": { "deny_groups_disabled": ["privilege_escalation"] } } },
      { "id": "strict", "tools": { "exec": { "deny_groups_enabled": ["package_install", "network_tools"] } } }
    ] }
  })";
  const std::string cfg = " --config " + Quote((dir_ / "c.json").string());
  EXPECT_EQ(Json::parse(Exec(Quote("pip install x") + cfg).out)["decision"], "allow");
  EXPECT_EQ(Json::parse(Exec(Quote("sudo ls") + cfg).out)["decision"], "deny");
  EXPECT_EQ(Json::parse(Exec(Quote("sudo ls") + cfg + " --agent ops").out)["decision"], "allow");
  EXPECT_EQ(Json::parse(Exec(Quote("pip install x") + cfg + " --agent strict").out)["decision"],
            "ask");
  EXPECT_EQ(
      Json::parse(Exec(Quote("curl https://example.com") + cfg + " --agent strict").out)["rule"],
      "network_tools.client");
}

TEST_F(CheckCommandCliTest, UsageErrorsExitTwo) {
  EXPECT_EQ(Exec("").code, 2);
  EXPECT_EQ(Exec("ls --no-such-flag").code, 2);
  EXPECT_EQ(Exec("ls --agent x").code, 2);
  std::ofstream(dir_ / "c.json") << "{}";
  EXPECT_EQ(Exec("ls --config " + Quote((dir_ / "c.json").string()) + " --agent nobody").code, 2);
  std::ofstream(dir_ / "bad.json") << R"({"tools": {"exec": {"deny_groups_disabled": "x"}}})";
  EXPECT_EQ(Exec("ls --config " + Quote((dir_ / "bad.json").string())).code, 1);
}

}  // namespace
