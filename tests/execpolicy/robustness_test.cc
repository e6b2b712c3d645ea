// Hostile input: never crash, never hang, never allow what could not be analyzed.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>

#include "execpolicy/command_analysis.h"

namespace clawtools::execpolicy {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

TEST(RobustnessTest, RandomBytesNeverCrash) {
  std::mt19937 rng(42);
  const std::string alphabet = "rm -f/$(){}[]'\"`\\;|&<>\n\t*?~!#=:,.x${IFS}";
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    const int len = rng() % 64;
    for (int k = 0; k < len; ++k) {
      s += rng() % 4 == 0 ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()];
    }
    Analysis a = AnalyzeCommand(s);
    if (a.decision == Decision::kAllow) {
      for (const auto& c : a.commands) EXPECT_FALSE(c.argv.empty());
    }
  }
}

TEST(RobustnessTest, UnbalancedInputIsDenied) {
  for (const char* s : {"rm -rf '/", "echo \"unterminated", "echo $(ls", "echo `ls", "( ls", "ls )",
                        "if true; then ls", "case x in", "echo ${X", "echo $'abc", "ls &&", "| ls",
                        "for x in a; do ls", "f() {", "cat <(ls"}) {
    Analysis a = AnalyzeCommand(s);
    EXPECT_EQ(a.decision, Decision::kDeny) << s;
    EXPECT_EQ(a.rule, "analysis.parse_error") << s;
  }
}

TEST(RobustnessTest, DeepNestingIsRefusedQuickly) {
  std::string s;
  for (int i = 0; i < 10000; ++i) s += "$(";
  s += "ls";
  for (int i = 0; i < 10000; ++i) s += ")";
  auto start = Clock::now();
  Analysis a = AnalyzeCommand(s);
  EXPECT_LT(Seconds(start), 1.0);
  EXPECT_EQ(a.decision, Decision::kDeny);
  EXPECT_EQ(a.rule, "analysis.too_complex");

  // Each eval re-parses the rest: nesting of scripts, not of syntax.
  std::string evals;
  for (int i = 0; i < 1000; ++i) evals += "eval ";
  a = AnalyzeCommand(evals + "ls");
  EXPECT_EQ(a.decision, Decision::kDeny);
  EXPECT_EQ(a.rule, "analysis.too_complex");
}

TEST(RobustnessTest, LongCommandsAreAnalyzedInFull) {
  // 100k characters, thousands of subcommands, the dangerous one last: no subcommand cap.
  std::string s;
  while (s.size() < 100000) s += "echo hello world; ";
  s += "rm -rf /";
  auto start = Clock::now();
  Analysis a = AnalyzeCommand(s);
  EXPECT_LT(Seconds(start), 2.0);
  EXPECT_EQ(a.decision, Decision::kDeny);
  EXPECT_EQ(a.rule, "destructive_fs.rm_recursive_critical");
  EXPECT_GT(a.commands.size(), 5000u);

  std::string word(100000, 'a');
  start = Clock::now();
  EXPECT_EQ(AnalyzeCommand("echo " + word).decision, Decision::kAllow);
  EXPECT_LT(Seconds(start), 1.0);
}

TEST(RobustnessTest, ExplosiveExpansionsAreBounded) {
  auto start = Clock::now();
  Analysis a = AnalyzeCommand("echo {1..9}{1..9}{1..9}{1..9}{1..9}{1..9}");
  EXPECT_EQ(a.decision, Decision::kDeny);
  EXPECT_EQ(a.rule, "analysis.too_complex");
  a = AnalyzeCommand("echo {1..999999999}");
  EXPECT_EQ(a.rule, "analysis.too_complex");
  a = AnalyzeCommand(
      "X=aaaaaaaaaaaaaaaa; X=$X$X$X$X$X$X$X$X; X=$X$X$X$X$X$X$X$X; X=$X$X$X$X$X$X$X$X; "
      "X=$X$X$X$X$X$X$X$X; X=$X$X$X$X$X$X$X$X; X=$X$X$X$X$X$X$X$X; echo $X");
  EXPECT_EQ(a.rule, "analysis.too_complex");
  std::string loops;
  for (int i = 0; i < 12; ++i) loops += "for a" + std::to_string(i) + " in 1 2 3 4 5 6 7 8; do ";
  loops += "echo x";
  for (int i = 0; i < 12; ++i) loops += "; done";
  a = AnalyzeCommand(loops);
  EXPECT_EQ(a.rule, "analysis.too_complex");
  EXPECT_LT(Seconds(start), 5.0);
}

TEST(RobustnessTest, NulByteIsDenied) {
  EXPECT_EQ(AnalyzeCommand(std::string("ls\0rm -rf /", 11)).decision, Decision::kDeny);
}

}  // namespace
}  // namespace clawtools::execpolicy
