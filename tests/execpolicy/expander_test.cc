// Static expansion gives the words bash would pass to the program.
#include "execpolicy/expander.h"

#include <gtest/gtest.h>

#include "execpolicy/parser.h"

namespace clawtools::execpolicy {
namespace {

class NoSubstitutions : public ExpansionHooks {
 public:
  SubstitutionResult CommandSubstitution(const Script&) override { return {}; }
  unsigned ProcessSubstitution(const Script&) override { return 0; }
};

// Expands the words of the last simple command in `script`, after running its assignments.
std::vector<std::string> Words(std::string_view script, Env env = {}) {
  auto parsed = ParseScript(script);
  EXPECT_TRUE(parsed.has_value()) << script;
  NoSubstitutions hooks;
  std::vector<std::string> out;
  for (const auto& item : parsed->items) {
    const Command& c = *item.pipeline.commands[0];
    for (const Word& a : c.assignments) {
      Word v = a;
      std::string name = v.parts[0].text;
      name.pop_back();
      v.parts.erase(v.parts.begin());
      Field f = ExpandWord(v, env, hooks, ExpandMode::kSingle)[0];
      if (f.dynamic)
        env.SetUnknown(name);
      else
        env.SetString(name, f.text);
    }
    out.clear();
    for (const Word& w : c.words) {
      for (const Field& f : ExpandWord(w, env, hooks, ExpandMode::kWords)) {
        out.push_back(f.dynamic ? "<" + f.text + ">" : f.text);
      }
    }
  }
  return out;
}

using V = std::vector<std::string>;

TEST(ExpanderTest, QuoteRemoval) {
  EXPECT_EQ(Words("r''m -r\"f\" \\/"), (V{"rm", "-rf", "/"}));
  EXPECT_EQ(Words("echo \"a  b\" 'c d' \"\""), (V{"echo", "a  b", "c d", ""}));
}

TEST(ExpanderTest, IfsSplitsUnquotedExpansions) {
  EXPECT_EQ(Words("rm${IFS}-rf${IFS}/"), (V{"rm", "-rf", "/"}));
  EXPECT_EQ(Words("echo \"$IFS\""), (V{"echo", " \t\n"}));
  EXPECT_EQ(Words("IFS=,; c=a,b; echo $c"), (V{"echo", "a", "b"}));
}

TEST(ExpanderTest, BraceExpansion) {
  EXPECT_EQ(Words("{rm,-rf,/}"), (V{"rm", "-rf", "/"}));
  EXPECT_EQ(Words("echo a{1..3}b"), (V{"echo", "a1b", "a2b", "a3b"}));
  EXPECT_EQ(Words("echo {c..a}"), (V{"echo", "c", "b", "a"}));
  EXPECT_EQ(Words("echo '{a,b}' {} {x}"), (V{"echo", "{a,b}", "{}", "{x}"}));
}

TEST(ExpanderTest, ParameterOperators) {
  EXPECT_EQ(Words("X=XXrm; echo ${X#XX} ${X%m} ${X/XX/y} ${#X} ${X:2:1} ${X,,} ${X^^}"),
            (V{"echo", "rm", "XXr", "yrm", "4", "r", "xxrm", "XXRM"}));
  EXPECT_EQ(Words("X=; echo ${X:-def} ${X:+alt}"), (V{"echo", "def"}));
  EXPECT_EQ(Words("X='\\x72m'; echo ${X@E}"), (V{"echo", "rm"}));
  EXPECT_EQ(Words("R=X; X=v; echo ${!R}"), (V{"echo", "v"}));
}

TEST(ExpanderTest, UnknownValuesStayDynamic) {
  EXPECT_EQ(Words("echo $HOME/x \"$(date)\" $RANDOM"),
            (V{"echo", "<$HOME/x>", "<$(date)>", "<$RANDOM>"}));
}

TEST(ExpanderTest, GlobsAreMarked) {
  auto parsed = ParseScript("ls *.o '*.c' [ab] [");
  NoSubstitutions hooks;
  Env env;
  const auto& words = parsed->items[0].pipeline.commands[0]->words;
  EXPECT_TRUE(ExpandWord(words[1], env, hooks, ExpandMode::kWords)[0].glob);
  EXPECT_FALSE(ExpandWord(words[2], env, hooks, ExpandMode::kWords)[0].glob);
  EXPECT_TRUE(ExpandWord(words[3], env, hooks, ExpandMode::kWords)[0].glob);
  EXPECT_FALSE(ExpandWord(words[4], env, hooks, ExpandMode::kWords)[0].glob);
}

TEST(ExpanderTest, BranchesForgetValues) {
  Env a;
  a.SetString("X", "ls");
  Env b = a;
  b.SetString("X", "rm");
  b.SetString("Y", "new");
  a.MergeBranch(b);
  EXPECT_FALSE(a.Find("X")->known);
  EXPECT_FALSE(a.Find("Y")->known);
}

TEST(ExpanderTest, SecretNames) {
  EXPECT_TRUE(IsSecretVariableName("GITHUB_TOKEN"));
  EXPECT_TRUE(IsSecretVariableName("aws_secret_access_key"));
  EXPECT_TRUE(IsSecretVariableName("CLAWTOOLS_HOME"));
  EXPECT_FALSE(IsSecretVariableName("PATH"));
  EXPECT_FALSE(IsSecretVariableName("HOME"));
}

}  // namespace
}  // namespace clawtools::execpolicy
