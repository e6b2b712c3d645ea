// search, glob, .gitignore and glob-pattern semantics.
#include <sys/time.h>

#include "fs_test_util.h"
#include "tools/fs/gitignore.h"
#include "tools/fs/glob_pattern.h"

namespace clawtools::testing_fs {
namespace {

TEST(GlobPattern, Matches) {
  EXPECT_TRUE(GlobMatch("*.cc", "a.cc"));
  EXPECT_FALSE(GlobMatch("*.cc", "d/a.cc"));
  EXPECT_TRUE(GlobMatch("**/*.cc", "a.cc"));
  EXPECT_TRUE(GlobMatch("**/*.cc", "x/y/a.cc"));
  EXPECT_TRUE(GlobMatch("src/**/t_?.py", "src/a/b/t_1.py"));
  EXPECT_TRUE(GlobMatch("src/**/t_?.py", "src/t_1.py"));
  EXPECT_FALSE(GlobMatch("src/**/t_?.py", "src/t_12.py"));
  EXPECT_TRUE(GlobMatch("a/**", "a/b/c"));
  EXPECT_TRUE(GlobMatch("[a-c]x[!0-9]", "bxz"));
  EXPECT_FALSE(GlobMatch("[a-c]x[!0-9]", "bx5"));
  EXPECT_TRUE(GlobMatch("\\*lit", "*lit"));
  EXPECT_FALSE(GlobMatch("\\*lit", "alit"));
  EXPECT_TRUE(GlobMatch("README*", "readme.md", true));
  EXPECT_FALSE(GlobMatch("a*b", "a/b"));
  EXPECT_EQ(ExpandBraces("{a,b}.{cc,h}"), (std::vector<std::string>{"a.cc", "a.h", "b.cc", "b.h"}));
  EXPECT_EQ(ExpandBraces("x{a,{b,c}}"), (std::vector<std::string>{"xa", "xb", "xc"}));
  EXPECT_EQ(ExpandBraces("{oops"), (std::vector<std::string>{"{oops"}));
}

TEST(Gitignore, Semantics) {
  auto f = GitignoreFile::Parse("# c\n*.log\n!keep.log\nbuild/\n/root.txt\ndocs/**/gen\n\\#hash\n");
  EXPECT_EQ(f.Match("a.log", false), true);
  EXPECT_EQ(f.Match("d/a.log", false), true);
  EXPECT_EQ(f.Match("keep.log", false), false);
  EXPECT_EQ(f.Match("build", true), true);
  EXPECT_EQ(f.Match("build", false), std::nullopt);  // dir-only
  EXPECT_EQ(f.Match("root.txt", false), true);
  EXPECT_EQ(f.Match("sub/root.txt", false), std::nullopt);  // anchored
  EXPECT_EQ(f.Match("docs/a/b/gen", true), true);
  EXPECT_EQ(f.Match("docs/gen", true), true);
  EXPECT_EQ(f.Match("#hash", false), true);
}

class SearchGlob : public ::testing::Test {
 protected:
  SearchGlob() {
    o_.workspace = sb_.ws().string();
    tools_ = std::make_unique<Tools>(o_);
    WriteText(sb_.ws() / "src" / "main.cc", "int main() {\n  return Foo();\n}\n");
    WriteText(sb_.ws() / "src" / "foo.h", "int Foo();\n// foo helper\n");
    WriteText(sb_.ws() / "src" / "sub" / "deep.py", "def foo():\n    pass\n");
    WriteText(sb_.ws() / "README.md", "Foo project\n");
    WriteText(sb_.ws() / ".gitignore", "*.log\nbuild/\n/top_only.txt\n");
    WriteText(sb_.ws() / "app.log", "Foo in log\n");
    WriteText(sb_.ws() / "build" / "out.cc", "Foo built\n");
    WriteText(sb_.ws() / "top_only.txt", "Foo top\n");
    WriteText(sb_.ws() / "src" / "top_only.txt", "Foo nested\n");
    WriteText(sb_.ws() / "src" / ".gitignore", "*.h\n!keep.h\n");
    WriteText(sb_.ws() / "src" / "keep.h", "Foo kept\n");
    WriteText(sb_.ws() / ".git" / "config", "Foo git\n");
    WriteText(sb_.ws() / "bin.dat", std::string("Foo\0\0binary", 12));
  }
  Result Call(const std::string& tool, const Json& args) { return tools_->Call(tool, ctx_, args); }
  Sandbox sb_;
  FsOptions o_;
  std::unique_ptr<Tools> tools_;
  CallContext ctx_ = MakeCtx(sb_.ws().string());
};

TEST_F(SearchGlob, FilesWithMatchesHonoursGitignore) {
  Result r = Call("search", {{"pattern", "Foo"}});
  ASSERT_FALSE(r.is_error) << r.for_llm;
  EXPECT_EQ(r.for_llm, "Found 4 files\nREADME.md\nsrc/keep.h\nsrc/main.cc\nsrc/top_only.txt\n");
}

TEST_F(SearchGlob, ContentAndCount) {
  Result r = Call("search",
                  {{"pattern", "foo"}, {"-i", true}, {"output_mode", "content"}, {"path", "src"}});
  EXPECT_EQ(r.for_llm,
            "src/keep.h:1:Foo kept\nsrc/main.cc:2:  return Foo();\nsrc/sub/deep.py:1:def "
            "foo():\nsrc/top_only.txt:1:Foo nested\n");
  r = Call("search", {{"pattern", "^\\s"}, {"output_mode", "count"}, {"path", "src"}});
  EXPECT_EQ(r.for_llm, "Found 2 matching lines in 2 files\nsrc/main.cc:1\nsrc/sub/deep.py:1\n");
  r = Call("search", {{"pattern", "o+"}, {"output_mode", "content"}, {"path", "src/main.cc"}});
  EXPECT_EQ(r.for_llm, "src/main.cc:2:  return Foo();\n");
}

TEST_F(SearchGlob, GlobFilterHeadLimitAndErrors) {
  Result r = Call("search", {{"pattern", "Foo"}, {"glob", "*.{cc,md}"}});
  EXPECT_EQ(r.for_llm, "Found 2 files\nREADME.md\nsrc/main.cc\n");
  r = Call("search", {{"pattern", "Foo"}, {"head_limit", 1}});
  EXPECT_NE(r.for_llm.find("Found 4 files\nREADME.md\n[Showing entries 1-1 of 4. Use offset=1"),
            std::string::npos)
      << r.for_llm;
  r = Call("search", {{"pattern", "Foo"}, {"head_limit", 1}, {"offset", 1}});
  EXPECT_NE(r.for_llm.find("\nsrc/keep.h\n"), std::string::npos) << r.for_llm;
  EXPECT_EQ(Call("search", {{"pattern", "zzz_nope"}}).for_llm, "No matches found");
  r = Call("search", {{"pattern", "(unclosed"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("invalid regex"), std::string::npos);
  EXPECT_TRUE(Call("search", {{"pattern", "x"}, {"output_mode", "lines"}}).is_error);
  EXPECT_EQ(Call("search", {{"pattern", "x"}, {"path", "nope"}}).error_code, ErrorCode::kNotFound);
  EXPECT_TRUE(Call("search", {{"pattern", "x"}, {"path", "/etc"}}).is_error);
}

TEST_F(SearchGlob, DoesNotFollowSymlinksOut) {
  fs::create_symlink(sb_.outside(), sb_.ws() / "out_dir");
  fs::create_symlink(sb_.outside() / "secret.txt", sb_.ws() / "out_file");
  EXPECT_EQ(Call("search", {{"pattern", "SECRET"}}).for_llm, "No matches found");
  EXPECT_EQ(Call("glob", {{"pattern", "**/secret.txt"}}).for_llm, "No files match **/secret.txt");
}

TEST_F(SearchGlob, GlobPatternsAndSorting) {
  Result r = Call("glob", {{"pattern", "**/*.{cc,py}"}, {"sort", "name"}});
  EXPECT_EQ(r.for_llm, "src/main.cc\nsrc/sub/deep.py\n");  // build/ is ignored
  r = Call("glob", {{"pattern", "*.md"}});
  EXPECT_EQ(r.for_llm, "README.md\n");
  r = Call("glob", {{"pattern", "*.py"}, {"path", "src/sub"}});
  EXPECT_EQ(r.for_llm, "deep.py\n");
  r = Call("glob", {{"pattern", "src/s?b/*"}});
  EXPECT_EQ(r.for_llm, "src/sub/deep.py\n");
  // Newest first by default.
  struct timeval old[2] = {{1000, 0}, {1000, 0}};
  ::utimes((sb_.ws() / "src" / "main.cc").c_str(), old);
  r = Call("glob", {{"pattern", "src/**/*.{cc,py}"}});
  EXPECT_EQ(r.for_llm, "src/sub/deep.py\nsrc/main.cc\n");
  r = Call("glob", {{"pattern", "**/*"}, {"limit", 2}});
  EXPECT_NE(r.for_llm.find("[Showing 2 of"), std::string::npos) << r.for_llm;
  r = Call("glob", {{"pattern", (sb_.ws() / "src" / "*.cc").string()}});
  EXPECT_EQ(r.for_llm, "src/main.cc\n");
  EXPECT_EQ(Call("glob", {{"pattern", "*.none"}}).for_llm, "No files match *.none");
  EXPECT_TRUE(Call("glob", {{"pattern", "*"}, {"path", "../outside"}}).is_error);
}

TEST_F(SearchGlob, ManyFilesInParallel) {
  for (int d = 0; d < 20; ++d)
    for (int f = 0; f < 50; ++f)
      WriteText(sb_.ws() / "many" / std::to_string(d) / (std::to_string(f) + ".txt"),
                f % 10 == 0 ? "needle here\n" : "hay\n");
  Result r = Call(
      "search",
      {{"pattern", "needle"}, {"output_mode", "count"}, {"path", "many"}, {"head_limit", 1000}});
  EXPECT_EQ(r.for_llm.substr(0, 34), "Found 100 matching lines in 100 fi");
  r = Call("glob", {{"pattern", "many/**/*.txt"}, {"limit", 5000}});
  EXPECT_EQ(std::count(r.for_llm.begin(), r.for_llm.end(), '\n'), 1000);
}

TEST_F(SearchGlob, CancelledSearchStops) {
  std::stop_source src;
  src.request_stop();
  auto ctx = MakeCtx(sb_.ws().string(), src.get_token());
  Result r = tools_->Call("search", ctx, {{"pattern", "Foo"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.error_code, ErrorCode::kCancelled);
}

}  // namespace
}  // namespace clawtools::testing_fs
