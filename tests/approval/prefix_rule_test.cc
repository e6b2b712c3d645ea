#include "approval/prefix_rule.h"

#include <gtest/gtest.h>

namespace clawtools {
namespace {

using Argv = std::vector<std::string>;

TEST(ValidatePrefix, AcceptsOrdinaryPrograms) {
  for (const Argv& p : {Argv{"git", "status"}, Argv{"ls"}, Argv{"npm", "test"}, Argv{"make"},
                        Argv{"/usr/bin/git", "log"}}) {
    EXPECT_TRUE(ValidatePrefix(p)) << JoinArgv(p);
  }
}

TEST(ValidatePrefix, RefusesBareShellsInterpretersAndWrappers) {
  for (const Argv& p : {Argv{"bash"},
                        Argv{"sh", "-c"},
                        Argv{"bash", "-lc"},
                        Argv{"/bin/sh"},
                        Argv{"zsh", "-c"},
                        Argv{"python"},
                        Argv{"python3"},
                        Argv{"python3.11", "-c"},
                        Argv{"/usr/bin/python3", "-u"},
                        Argv{"node", "-e"},
                        Argv{"perl", "-E"},
                        Argv{"ruby"},
                        Argv{"busybox"},
                        Argv{"env"},
                        Argv{"env", "FOO=1"},
                        Argv{"env", "-i"},
                        Argv{"env", "sh", "-c"},
                        Argv{"sudo"},
                        Argv{"sudo", "bash"},
                        Argv{"sudo", "-u", "root", "sh"},
                        Argv{"xargs"},
                        Argv{"xargs", "-0"},
                        Argv{"nohup", "python3"},
                        Argv{"timeout", "10", "bash"},
                        Argv{"env", "FOO=1", "sudo", "sh", "-c"},
                        Argv{},
                        Argv{""}}) {
    auto st = ValidatePrefix(p);
    EXPECT_FALSE(st) << "accepted: " << JoinArgv(p);
    if (!st) {
      EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgument);
    }
  }
}

TEST(ValidatePrefix, AcceptsInterpretersAndWrappersMadeSpecific) {
  for (const Argv& p : {Argv{"python3", "manage.py", "test"}, Argv{"bash", "-c", "make test"},
                        Argv{"sh", "build.sh"}, Argv{"sudo", "apt", "update"},
                        Argv{"env", "CI=1", "make"}, Argv{"timeout", "10", "make"},
                        Argv{"python", "-m", "pytest"}, Argv{"env", "FOO=1", "python3", "x.py"}}) {
    EXPECT_TRUE(ValidatePrefix(p)) << JoinArgv(p);
  }
}

TEST(RuleMatches, ElementwisePrefix) {
  PrefixRule rule{.argv_prefix = {"git", "status"}};
  EXPECT_TRUE(RuleMatches(rule, Argv{"git", "status"}, "/w"));
  EXPECT_TRUE(RuleMatches(rule, Argv{"git", "status", "-s"}, "/w"));
  EXPECT_FALSE(RuleMatches(rule, Argv{"git"}, "/w"));
  EXPECT_FALSE(RuleMatches(rule, Argv{"git", "push"}, "/w"));
  EXPECT_FALSE(RuleMatches(rule, Argv{"git", "statusx"}, "/w"));
  EXPECT_FALSE(RuleMatches(rule, Argv{"./git", "status"}, "/w"));  // not by basename
  EXPECT_FALSE(RuleMatches(rule, Argv{"/usr/bin/git", "status"}, "/w"));
  EXPECT_FALSE(RuleMatches(rule, Argv{"git status"}, "/w"));   // one word is not two
  EXPECT_FALSE(RuleMatches(PrefixRule{}, Argv{"git"}, "/w"));  // an empty rule matches nothing
}

TEST(RuleMatches, BoundDirectory) {
  PrefixRule rule{.argv_prefix = {"make"}, .cwd = "/w/a"};
  EXPECT_TRUE(RuleMatches(rule, Argv{"make"}, "/w/a"));
  EXPECT_FALSE(RuleMatches(rule, Argv{"make"}, "/w/b"));
  EXPECT_FALSE(RuleMatches(rule, Argv{"make"}, "/w/a/sub"));
}

TEST(ParsePattern, WordsAndQuotes) {
  EXPECT_EQ(ParsePattern("git status").value(), (Argv{"git", "status"}));
  EXPECT_EQ(ParsePattern("  npm  run 'build:prod' ").value(), (Argv{"npm", "run", "build:prod"}));
  EXPECT_EQ(ParsePattern(R"(echo "a b" c\ d '')").value(), (Argv{"echo", "a b", "c d", ""}));
  EXPECT_EQ(ParsePattern("ls '*.txt'").value(), (Argv{"ls", "*.txt"}));
}

TEST(ParsePattern, RejectsGlobsAndMalformedInput) {
  for (const char* p : {"git*", "ls ?", "rm [ab]", "", "   ", "echo 'open", "echo \\"}) {
    EXPECT_FALSE(ParsePattern(p)) << p;
  }
}

TEST(JoinArgv, QuotesWhatNeedsIt) {
  EXPECT_EQ(JoinArgv(Argv{"git", "commit", "-m", "a b"}), "git commit -m 'a b'");
  EXPECT_EQ(JoinArgv(Argv{"echo", "it's", ""}), "echo 'it'\\''s' ''");
  EXPECT_EQ(ParsePattern(JoinArgv(Argv{"echo", "it's", "$x"})).value(),
            (Argv{"echo", "it's", "$x"}));
}

}  // namespace
}  // namespace clawtools
