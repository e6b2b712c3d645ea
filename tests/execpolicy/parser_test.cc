// The parser builds the structure bash would: lists, pipelines, compound commands, words.
#include "execpolicy/parser.h"

#include <gtest/gtest.h>

namespace clawtools::execpolicy {
namespace {

using Kind = WordPart::Kind;

Script Parse(std::string_view s) {
  auto r = ParseScript(s);
  EXPECT_TRUE(r.has_value()) << s << ": " << (r ? "" : r.error().message);
  return r ? *r : Script{};
}

TEST(ParserTest, ListsAndPipelines) {
  Script s = Parse("a | b |& c && d || e; f & g\nh");
  ASSERT_EQ(s.items.size(), 6u);
  EXPECT_EQ(s.items[0].pipeline.commands.size(), 3u);
  EXPECT_EQ(s.items[0].separator, "&&");
  EXPECT_EQ(s.items[1].separator, "||");
  EXPECT_EQ(s.items[2].separator, ";");
  EXPECT_EQ(s.items[3].separator, "&");
  EXPECT_EQ(s.items[4].separator, "\n");
}

TEST(ParserTest, CompoundCommands) {
  Script s = Parse(
      "if a; then b; elif c; then d; else e; fi; while x; do y; done; for i in 1 2; do z; done;"
      " case $v in a|b) p;; *) q;; esac; (sub); { grp; }; f() { body; }; function g { h; }");
  ASSERT_EQ(s.items.size(), 8u);
  EXPECT_EQ(s.items[0].pipeline.commands[0]->kind, Command::Kind::kIf);
  EXPECT_EQ(s.items[0].pipeline.commands[0]->bodies.size(), 5u);
  EXPECT_EQ(s.items[1].pipeline.commands[0]->kind, Command::Kind::kLoop);
  EXPECT_EQ(s.items[2].pipeline.commands[0]->kind, Command::Kind::kFor);
  EXPECT_EQ(s.items[2].pipeline.commands[0]->words.size(), 2u);
  EXPECT_EQ(s.items[3].pipeline.commands[0]->kind, Command::Kind::kCase);
  EXPECT_EQ(s.items[3].pipeline.commands[0]->bodies.size(), 2u);
  EXPECT_EQ(s.items[4].pipeline.commands[0]->kind, Command::Kind::kSubshell);
  EXPECT_EQ(s.items[5].pipeline.commands[0]->kind, Command::Kind::kGroup);
  EXPECT_EQ(s.items[6].pipeline.commands[0]->kind, Command::Kind::kFunction);
  EXPECT_EQ(s.items[6].pipeline.commands[0]->text, "f");
  EXPECT_EQ(s.items[7].pipeline.commands[0]->text, "g");
}

TEST(ParserTest, ForkBombParses) {
  Script s = Parse(":(){ :|:& };:");
  ASSERT_EQ(s.items.size(), 2u);
  EXPECT_EQ(s.items[0].pipeline.commands[0]->kind, Command::Kind::kFunction);
  EXPECT_EQ(s.items[0].pipeline.commands[0]->text, ":");
}

TEST(ParserTest, WordPartsKeepQuoting) {
  Script s = Parse("echo a'b'\"c$X\"$'\\x41'$(d)`e`${f:-g}<(h)$((1+2))");
  const Word& w = s.items[0].pipeline.commands[0]->words[1];
  std::vector<Kind> kinds;
  for (const auto& p : w.parts) kinds.push_back(p.kind);
  EXPECT_EQ(kinds, (std::vector<Kind>{Kind::kLiteral, Kind::kQuoted, Kind::kDoubleQuoted,
                                      Kind::kQuoted, Kind::kCommandSub, Kind::kCommandSub,
                                      Kind::kParam, Kind::kProcessSub, Kind::kArith}));
  EXPECT_EQ(w.parts[3].text, "A");
  EXPECT_EQ(w.parts[6].op, ":-");
}

TEST(ParserTest, RedirectionsAndHeredocs) {
  Script s = Parse("cat <<'EOF' >out 2>&1 <<<word\nbody $X\nEOF\nls");
  ASSERT_EQ(s.items.size(), 2u);
  const Command& c = *s.items[0].pipeline.commands[0];
  ASSERT_EQ(c.redirects.size(), 4u);
  EXPECT_EQ(c.redirects[0].op, "<<");
  EXPECT_EQ(c.redirects[0].heredoc.parts[0].text, "body $X\n");
  EXPECT_EQ(c.redirects[2].fd, 2);
  EXPECT_EQ(c.redirects[2].op, ">&");
  EXPECT_EQ(c.redirects[3].op, "<<<");
}

TEST(ParserTest, AssignmentsAndArrays) {
  Script s = Parse("A=1 B=(x y) cmd arg");
  const Command& c = *s.items[0].pipeline.commands[0];
  ASSERT_EQ(c.assignments.size(), 2u);
  EXPECT_TRUE(c.assignments[1].is_array);
  EXPECT_EQ(c.assignments[1].elements.size(), 2u);
  EXPECT_EQ(c.words.size(), 2u);
}

TEST(ParserTest, AnsiC) {
  EXPECT_EQ(DecodeAnsiC("\\x72\\155\\u00e9\\n\\'\\cA"), "rm\xc3\xa9\n'\x01");
}

TEST(ParserTest, SyntaxErrors) {
  for (const char* s : {"'", "\"", "$(", "`", "(", ")", "fi", "done", "a &&", "a |", "${", "${X",
                        "case x in", "if a; then b", "f() x", "echo (x)"}) {
    EXPECT_FALSE(ParseScript(s).has_value()) << s;
  }
}

}  // namespace
}  // namespace clawtools::execpolicy
