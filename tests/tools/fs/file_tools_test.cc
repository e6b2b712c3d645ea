// read_file, write_file, edit_file, list_files: happy paths, errors, caps, atomicity, routing.
#include "fs_test_util.h"

namespace clawtools::testing_fs {
namespace {

class FileTools : public ::testing::Test {
 protected:
  FileTools() {
    o_.workspace = sb_.ws().string();
    tools_ = std::make_unique<Tools>(o_);
  }
  Result Call(const std::string& tool, const Json& args) { return tools_->Call(tool, ctx_, args); }
  Sandbox sb_;
  FsOptions o_;
  std::unique_ptr<Tools> tools_;
  CallContext ctx_ = MakeCtx("");  // empty: falls back to FsOptions::workspace
};

TEST_F(FileTools, SchemasDescribeEveryProperty) {
  for (const char* name :
       {"read_file", "write_file", "edit_file", "list_files", "search", "glob"}) {
    const Tool& t = tools_->Get(name);
    EXPECT_FALSE(t.description().empty());
    ASSERT_TRUE(t.parameters().contains("properties")) << name;
    for (auto& [k, v] : t.parameters()["properties"].items())
      EXPECT_TRUE(v.contains("description")) << name << "." << k;
  }
}

TEST_F(FileTools, ReadNumbersLinesAndPages) {
  std::string text;
  for (int i = 1; i <= 2500; ++i) text += "line " + std::to_string(i) + "\n";
  WriteText(sb_.ws() / "big.txt", text);
  Result r = Call("read_file", {{"path", "big.txt"}});
  ASSERT_FALSE(r.is_error) << r.for_llm;
  EXPECT_EQ(r.for_llm.substr(0, 14), "     1\tline 1\n");
  EXPECT_NE(r.for_llm.find("  2000\tline 2000\n"), std::string::npos);
  EXPECT_EQ(r.for_llm.find("line 2001\n"), std::string::npos);
  EXPECT_NE(r.for_llm.find("offset=2001"), std::string::npos);
  r = Call("read_file", {{"path", "big.txt"}, {"offset", 2499}, {"limit", 5}});
  EXPECT_EQ(r.for_llm, "  2499\tline 2499\n  2500\tline 2500\n");
  r = Call("read_file", {{"path", "big.txt"}, {"offset", 9999}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("2500 lines"), std::string::npos);
}

TEST_F(FileTools, ReadCutsLongLinesAndRefusesBinary) {
  WriteText(sb_.ws() / "long.txt", std::string(5000, 'x') + "\nshort\n");
  Result r = Call("read_file", {{"path", "long.txt"}});
  EXPECT_NE(r.for_llm.find("line cut at 2000"), std::string::npos);
  EXPECT_NE(r.for_llm.find("     2\tshort"), std::string::npos);
  WriteText(sb_.ws() / "bin.dat", std::string("ELF\0\0\1\2", 7));
  r = Call("read_file", {{"path", "bin.dat"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("binary"), std::string::npos);
  std::string latin1;
  for (int i = 0; i < 200; ++i) latin1 += static_cast<char>(0xE9);
  WriteText(sb_.ws() / "latin1.txt", latin1);
  EXPECT_TRUE(Call("read_file", {{"path", "latin1.txt"}}).is_error);
  WriteText(sb_.ws() / "utf8.txt", "héllo wörld ✓\n");
  EXPECT_FALSE(Call("read_file", {{"path", "utf8.txt"}}).is_error);
  WriteText(sb_.ws() / "empty.txt", "");
  EXPECT_NE(Call("read_file", {{"path", "empty.txt"}}).for_llm.find("empty"), std::string::npos);
}

TEST_F(FileTools, ReadErrors) {
  Result r = Call("read_file", {{"path", "missing.txt"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.error_code, ErrorCode::kNotFound);
  EXPECT_TRUE(Call("read_file", {{"path", ""}}).is_error);
  EXPECT_TRUE(Call("read_file", {{"path", 42}}).is_error);
  EXPECT_TRUE(Call("read_file", Json::object()).is_error);
  o_.read_max_file_bytes = 10;
  Tools small(o_);
  WriteText(sb_.ws() / "f.txt", "0123456789ABC");
  r = small.Call("read_file", ctx_, {{"path", "f.txt"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("limit"), std::string::npos);
}

TEST_F(FileTools, WriteCreatesParentsAndAppends) {
  Result r = Call("write_file", {{"path", "a/b/c.txt"}, {"content", "one\n"}});
  ASSERT_FALSE(r.is_error) << r.for_llm;
  EXPECT_EQ(ReadText(sb_.ws() / "a/b/c.txt"), "one\n");
  r = Call("write_file", {{"path", "a/b/c.txt"}, {"content", "two\n"}, {"append", true}});
  ASSERT_FALSE(r.is_error) << r.for_llm;
  EXPECT_EQ(ReadText(sb_.ws() / "a/b/c.txt"), "one\ntwo\n");
  EXPECT_FALSE(
      Call("write_file", {{"path", "new.txt"}, {"content", "x"}, {"append", true}}).is_error);
  EXPECT_EQ(ReadText(sb_.ws() / "new.txt"), "x");
  EXPECT_EQ(fs::status(sb_.ws() / "new.txt").permissions() & fs::perms(0777), fs::perms(0644));
  o_.write_max_bytes = 4;
  Tools small(o_);
  EXPECT_TRUE(small.Call("write_file", ctx_, {{"path", "new.txt"}, {"content", "12345"}}).is_error);
  EXPECT_TRUE(
      small.Call("write_file", ctx_, {{"path", "new.txt"}, {"content", "1234"}, {"append", true}})
          .is_error);
  EXPECT_EQ(ReadText(sb_.ws() / "new.txt"), "x");
  EXPECT_TRUE(Call("write_file", {{"path", "dir/"}, {"content", "x"}}).is_error);
  EXPECT_TRUE(Call("write_file", {{"path", "."}, {"content", "x"}}).is_error);
}

TEST_F(FileTools, WriteKeepsModeAndLeavesNoTempFiles) {
  WriteText(sb_.ws() / "script.sh", "old");
  fs::permissions(sb_.ws() / "script.sh", fs::perms(0700));
  ASSERT_FALSE(Call("write_file", {{"path", "script.sh"}, {"content", "new"}}).is_error);
  ASSERT_FALSE(
      Call("edit_file", {{"path", "script.sh"}, {"old_string", "new"}, {"new_string", "newer"}})
          .is_error);
  EXPECT_EQ(fs::status(sb_.ws() / "script.sh").permissions() & fs::perms(0777), fs::perms(0700));
  EXPECT_EQ(ReadText(sb_.ws() / "script.sh"), "newer");
  fs::create_directories(sb_.ws() / "ro");
  fs::permissions(sb_.ws() / "ro", fs::perms(0555));
  if (::geteuid() != 0) {
    EXPECT_TRUE(Call("write_file", {{"path", "ro/x"}, {"content", "x"}}).is_error);
  }
  fs::permissions(sb_.ws() / "ro", fs::perms(0755));
  for (auto& e : fs::recursive_directory_iterator(sb_.ws()))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST_F(FileTools, EditReplacesExactText) {
  WriteText(sb_.ws() / "e.txt", "alpha\nbeta\ngamma\nbeta\n");
  Result r =
      Call("edit_file", {{"path", "e.txt"}, {"old_string", "alpha"}, {"new_string", "ALPHA"}});
  ASSERT_FALSE(r.is_error) << r.for_llm;
  EXPECT_NE(r.for_llm.find("replaced 1 occurrence"), std::string::npos);
  r = Call("edit_file", {{"path", "e.txt"}, {"old_string", "beta"}, {"new_string", "B"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("found 2 times"), std::string::npos) << r.for_llm;
  EXPECT_NE(r.for_llm.find("lines 2, 4"), std::string::npos) << r.for_llm;
  EXPECT_NE(r.for_llm.find("replace_all"), std::string::npos);
  r = Call("edit_file",
           {{"path", "e.txt"}, {"old_string", "beta"}, {"new_string", "B"}, {"replace_all", true}});
  EXPECT_NE(r.for_llm.find("replaced 2 occurrences"), std::string::npos);
  EXPECT_EQ(ReadText(sb_.ws() / "e.txt"), "ALPHA\nB\ngamma\nB\n");
}

TEST_F(FileTools, EditErrors) {
  WriteText(sb_.ws() / "e.txt", "if (x) {\n    return 1;\n}\n");
  Result r =
      Call("edit_file",
           {{"path", "e.txt"}, {"old_string", "if (x) {\n  return 1;"}, {"new_string", "y"}});
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("whitespace"), std::string::npos) << r.for_llm;
  r = Call("edit_file", {{"path", "e.txt"}, {"old_string", "nope"}, {"new_string", "y"}});
  EXPECT_NE(r.for_llm.find("not found"), std::string::npos);
  r = Call("edit_file", {{"path", "e.txt"}, {"old_string", "x"}, {"new_string", "x"}});
  EXPECT_NE(r.for_llm.find("identical"), std::string::npos);
  EXPECT_TRUE(
      Call("edit_file", {{"path", "e.txt"}, {"old_string", ""}, {"new_string", "x"}}).is_error);
  EXPECT_EQ(
      Call("edit_file", {{"path", "missing"}, {"old_string", "a"}, {"new_string", "b"}}).error_code,
      ErrorCode::kNotFound);
  EXPECT_EQ(ReadText(sb_.ws() / "e.txt"), "if (x) {\n    return 1;\n}\n");
}

TEST_F(FileTools, ListFiles) {
  WriteText(sb_.ws() / "b.txt", "12345");
  WriteText(sb_.ws() / "a" / "inner.txt", "x");
  WriteText(sb_.ws() / "a" / "deep" / "z.txt", "x");
  WriteText(sb_.ws() / ".git" / "HEAD", "ref");
  fs::create_symlink("b.txt", sb_.ws() / "link");
  Result r = Call("list_files", Json::object());
  ASSERT_FALSE(r.is_error) << r.for_llm;
  EXPECT_EQ(r.for_llm, "[dir]  .git/\n[dir]  a/\n[file] b.txt (5 bytes)\n[link] link -> b.txt\n");
  r = Call("list_files", {{"path", "."}, {"depth", 3}});
  EXPECT_NE(r.for_llm.find(
                "[dir]  a/\n[dir]  a/deep/\n[file] a/deep/z.txt (1 bytes)\n[file] a/inner.txt"),
            std::string::npos)
      << r.for_llm;
  EXPECT_EQ(r.for_llm.find("HEAD"), std::string::npos);  // .git is not entered
  r = Call("list_files", {{"path", "a"}});
  EXPECT_EQ(r.for_llm, "[dir]  deep/\n[file] inner.txt (1 bytes)\n");
  EXPECT_EQ(Call("list_files", {{"path", "nope"}}).error_code, ErrorCode::kNotFound);
  o_.list_max_entries = 2;
  Tools small(o_);
  r = small.Call("list_files", ctx_, Json::object());
  EXPECT_NE(r.for_llm.find("Listing stopped at 2"), std::string::npos) << r.for_llm;
}

TEST_F(FileTools, VirtualFilesAreRouted) {
  auto router = std::make_shared<FakeRouter>(std::vector<std::string>{"memory/", "SOUL.md"});
  Tools t(o_, {router});
  WriteText(sb_.ws() / "SOUL.md", "disk soul\n");  // shadowed by the router
  Result r = t.Call("write_file", ctx_, {{"path", "SOUL.md"}, {"content", "db soul\n"}});
  ASSERT_FALSE(r.is_error) << r.for_llm;
  EXPECT_EQ(router->Get("SOUL.md"), "db soul\n");
  EXPECT_EQ(ReadText(sb_.ws() / "SOUL.md"), "disk soul\n");
  r = t.Call("read_file", ctx_, {{"path", "./SOUL.md"}});
  EXPECT_EQ(r.for_llm, "     1\tdb soul\n");
  r = t.Call("read_file", ctx_, {{"path", (sb_.ws() / "SOUL.md").string()}});
  EXPECT_EQ(r.for_llm, "     1\tdb soul\n");
  ASSERT_FALSE(
      t.Call("write_file", ctx_, {{"path", "memory/notes.md"}, {"content", "a\n"}}).is_error);
  ASSERT_FALSE(t.Call("write_file", ctx_,
                      {{"path", "memory/notes.md"}, {"content", "b\n"}, {"append", true}})
                   .is_error);
  EXPECT_EQ(router->Get("memory/notes.md"), "a\nb\n");
  EXPECT_FALSE(fs::exists(sb_.ws() / "memory"));
  r = t.Call("edit_file", ctx_,
             {{"path", "memory/notes.md"}, {"old_string", "b"}, {"new_string", "c"}});
  ASSERT_FALSE(r.is_error) << r.for_llm;
  EXPECT_EQ(router->Get("memory/notes.md"), "a\nc\n");
  r = t.Call("list_files", ctx_, {{"path", "."}, {"depth", 2}});
  EXPECT_NE(r.for_llm.find("memory/notes.md (4 bytes, virtual)"), std::string::npos) << r.for_llm;
  r = t.Call("list_files", ctx_, {{"path", "memory"}});
  EXPECT_EQ(r.for_llm, "[file] notes.md (4 bytes, virtual)\n");
  r = t.Call("search", ctx_, {{"pattern", "soul"}});
  EXPECT_NE(r.for_llm.find("SOUL.md"), std::string::npos);
  r = t.Call("search", ctx_, {{"pattern", "disk soul"}});
  EXPECT_EQ(r.for_llm, "No matches found");  // the disk copy is shadowed
  r = t.Call("search", ctx_, {{"pattern", "^c$"}, {"output_mode", "content"}});
  EXPECT_NE(r.for_llm.find("memory/notes.md:2:c"), std::string::npos) << r.for_llm;
  r = t.Call("glob", ctx_, {{"pattern", "memory/*.md"}});
  EXPECT_EQ(r.for_llm, "memory/notes.md\n");
  EXPECT_TRUE(t.Call("read_file", ctx_, {{"path", "memory/none.md"}}).is_error);
}

}  // namespace
}  // namespace clawtools::testing_fs
