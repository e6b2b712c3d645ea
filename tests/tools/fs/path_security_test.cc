// Adversarial path tests, run with openat2 (kAuto) and with the component walk (kWalk).
#include <fcntl.h>
#include <limits.h>

#include <atomic>
#include <thread>

#include "fs_test_util.h"
#include "tools/fs/workspace_fs.h"

namespace clawtools::testing_fs {
namespace {

class PathSecurity : public ::testing::TestWithParam<FsResolveMode> {
 protected:
  void SetUp() override {
    WriteText(sb_.ws() / "hello.txt", "hello\n");
    WriteText(sb_.ws() / "subdir" / "nested.txt", "nested\n");
    o_.workspace = sb_.ws().string();
    o_.resolve_mode = GetParam();
    o_.deny.push_back({"store.db", false});
    tools_ = std::make_unique<Tools>(o_);
    ctx_ = MakeCtx(sb_.ws().string());
  }
  Result Read(const std::string& p) { return tools_->Call("read_file", ctx_, {{"path", p}}); }
  Result Write(const std::string& p, const std::string& c = "pwned") {
    return tools_->Call("write_file", ctx_, {{"path", p}, {"content", c}});
  }
  void ExpectOutsideUntouched() {
    EXPECT_EQ(ReadText(sb_.outside() / "secret.txt"), "TOP SECRET\n");
    EXPECT_EQ(ReadText(sb_.root() / "ws-evil" / "x.txt"), "EVIL SIBLING\n");
    EXPECT_FALSE(fs::exists(sb_.outside() / "new.txt"));
  }

  Sandbox sb_;
  FsOptions o_;
  std::unique_ptr<Tools> tools_;
  CallContext ctx_;
};

// GoClaw boundary_test.go vectors (goclaw-facts 4.8).
TEST_P(PathSecurity, GoClawVectors) {
  EXPECT_FALSE(Read("hello.txt").is_error);
  EXPECT_FALSE(Read("subdir/nested.txt").is_error);
  EXPECT_FALSE(Read((sb_.ws() / "hello.txt").string()).is_error);
  EXPECT_TRUE(Read("../../etc/passwd").is_error);
  EXPECT_TRUE(Read("/etc/passwd").is_error);
  fs::create_symlink(sb_.outside() / "secret.txt", sb_.ws() / "evil_link");
  Result r = Read("evil_link");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("escapes the workspace"), std::string::npos) << r.for_llm;
  fs::create_symlink(sb_.ws() / "hello.txt", sb_.ws() / "good_link");
  r = Read("good_link");
  EXPECT_FALSE(r.is_error) << r.for_llm;
  EXPECT_NE(r.for_llm.find("hello"), std::string::npos);
  fs::create_symlink("/nonexistent/secret", sb_.ws() / "broken_link");
  EXPECT_TRUE(Read("broken_link").is_error);
  EXPECT_TRUE(Write("broken_link").is_error);
  fs::create_symlink(sb_.outside(), sb_.ws() / "evil_dir");
  EXPECT_TRUE(Read("evil_dir/secret.txt").is_error);
  EXPECT_TRUE(Write("evil_dir/new.txt").is_error);
  EXPECT_FALSE(Write("new_file.txt", "ok").is_error);
  ExpectOutsideUntouched();
}

TEST_P(PathSecurity, DotDotAndAbsolute) {
  EXPECT_TRUE(Read("subdir/../../outside/secret.txt").is_error);
  EXPECT_TRUE(Read((sb_.ws() / ".." / "outside" / "secret.txt").string()).is_error);
  EXPECT_TRUE(Write("../outside/new.txt").is_error);
  EXPECT_TRUE(Write((sb_.outside() / "new.txt").string()).is_error);
  EXPECT_FALSE(Read("subdir/../hello.txt").is_error);  // stays inside: fine
  ExpectOutsideUntouched();
}

TEST_P(PathSecurity, PrefixSibling) {
  std::string evil = sb_.root().string() + "/ws-evil/x.txt";
  Result r = Read(evil);
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.error_code, ErrorCode::kPermissionDenied);
  EXPECT_TRUE(Write(sb_.root().string() + "/ws-evil/y.txt").is_error);
  EXPECT_FALSE(fs::exists(sb_.root() / "ws-evil" / "y.txt"));
  ExpectOutsideUntouched();
}

TEST_P(PathSecurity, SymlinkInTheMiddle) {
  fs::create_directories(sb_.ws() / "a");
  fs::create_symlink("../../outside", sb_.ws() / "a" / "link");
  EXPECT_TRUE(Read("a/link/secret.txt").is_error);
  EXPECT_TRUE(Write("a/link/new.txt").is_error);
  EXPECT_TRUE(Write("a/link/sub/new.txt").is_error);
  // An in-workspace relative symlink in the middle is followed.
  fs::create_symlink("../subdir", sb_.ws() / "a" / "inside");
  EXPECT_FALSE(Read("a/inside/nested.txt").is_error);
  ExpectOutsideUntouched();
}

TEST_P(PathSecurity, DanglingSymlinkWrite) {
  fs::create_symlink(sb_.outside() / "new.txt", sb_.ws() / "dangling_abs");
  fs::create_symlink("../outside/new.txt", sb_.ws() / "dangling_rel");
  EXPECT_TRUE(Write("dangling_abs").is_error);
  EXPECT_TRUE(Write("dangling_rel").is_error);
  ExpectOutsideUntouched();
  // A dangling link to a new file inside the workspace creates the target; the link stays.
  fs::create_symlink("made/by/link.txt", sb_.ws() / "dangling_in");
  Result r = Write("dangling_in", "via link");
  EXPECT_FALSE(r.is_error) << r.for_llm;
  EXPECT_TRUE(fs::is_symlink(sb_.ws() / "dangling_in"));
  EXPECT_EQ(ReadText(sb_.ws() / "made/by/link.txt"), "via link");
}

TEST_P(PathSecurity, WriteThroughInsideSymlinkKeepsLink) {
  fs::create_symlink("hello.txt", sb_.ws() / "alias");
  EXPECT_FALSE(Write("alias", "changed\n").is_error);
  EXPECT_TRUE(fs::is_symlink(sb_.ws() / "alias"));
  EXPECT_EQ(ReadText(sb_.ws() / "hello.txt"), "changed\n");
}

TEST_P(PathSecurity, Hardlinks) {
  ASSERT_EQ(::link((sb_.outside() / "secret.txt").c_str(), (sb_.ws() / "hl.txt").c_str()), 0);
  Result r = Read("hl.txt");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("hardlink"), std::string::npos);
  EXPECT_TRUE(Write("hl.txt").is_error);
  EXPECT_TRUE(tools_
                  ->Call("edit_file", ctx_,
                         {{"path", "hl.txt"}, {"old_string", "TOP"}, {"new_string", "X"}})
                  .is_error);
  auto s = tools_->Call("search", ctx_, {{"pattern", "SECRET"}});
  EXPECT_EQ(s.for_llm.find("hl.txt"), std::string::npos) << s.for_llm;
  ExpectOutsideUntouched();
}

TEST_P(PathSecurity, NulAndOverlongPaths) {
  Result r = Read(std::string("hello.txt\0../../etc/passwd", 26));
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("NUL"), std::string::npos);
  EXPECT_TRUE(Read(std::string(NAME_MAX + 1, 'a')).is_error);
  std::string deep;
  while (deep.size() < PATH_MAX + 10) deep += "d/";
  r = Write(deep + "f.txt");
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.for_llm.find("too long"), std::string::npos) << r.for_llm;
}

TEST_P(PathSecurity, DenyRulesMatchResolvedPath) {
  WriteText(sb_.ws() / "store.db", "db");
  WriteText(sb_.ws() / ".git" / "config", "[core]\n");
  EXPECT_TRUE(Read("store.db").is_error);
  EXPECT_TRUE(Read("./subdir/../store.db").is_error);
  fs::create_symlink("store.db", sb_.ws() / "db_alias");
  EXPECT_TRUE(Read("db_alias").is_error);
  // .git is readable but never writable by default.
  EXPECT_FALSE(Read(".git/config").is_error);
  EXPECT_TRUE(Write("./.git/../.git/config").is_error);
  EXPECT_TRUE(Write(".git/hooks/pre-commit").is_error);
  EXPECT_FALSE(fs::exists(sb_.ws() / ".git" / "hooks"));
  EXPECT_EQ(ReadText(sb_.ws() / ".git" / "config"), "[core]\n");
  auto l = tools_->Call("list_files", ctx_, Json::object());
  EXPECT_EQ(l.for_llm.find("[file] store.db"), std::string::npos) << l.for_llm;
}

TEST_P(PathSecurity, ExtraRootsReadOnlyUnlessConfigured) {
  WriteText(sb_.root() / "skills" / "s.md", "skill\n");
  WriteText(sb_.root() / "rw" / "r.md", "rw\n");
  o_.extra_roots = {{(sb_.root() / "skills").string(), false},
                    {(sb_.root() / "rw").string(), true}};
  Tools t(o_);
  auto skill = (sb_.root() / "skills" / "s.md").string();
  EXPECT_FALSE(t.Call("read_file", ctx_, {{"path", skill}}).is_error);
  EXPECT_TRUE(t.Call("write_file", ctx_, {{"path", skill}, {"content", "x"}}).is_error);
  EXPECT_EQ(ReadText(sb_.root() / "skills" / "s.md"), "skill\n");
  EXPECT_FALSE(t.Call("write_file", ctx_,
                      {{"path", (sb_.root() / "rw" / "r.md").string()}, {"content", "y"}})
                   .is_error);
  EXPECT_EQ(ReadText(sb_.root() / "rw" / "r.md"), "y");
  // Extra roots contain escapes too.
  fs::create_symlink(sb_.outside() / "secret.txt", sb_.root() / "skills" / "leak");
  EXPECT_TRUE(
      t.Call("read_file", ctx_, {{"path", (sb_.root() / "skills" / "leak").string()}}).is_error);
  EXPECT_TRUE(t.Call("read_file", ctx_,
                     {{"path", (sb_.root() / "skills" / ".." / "outside" / "secret.txt").string()}})
                  .is_error);
}

TEST_P(PathSecurity, SpecialFilesRefused) {
  ASSERT_EQ(::mkfifo((sb_.ws() / "fifo").c_str(), 0644), 0);
  Result r = Read("fifo");  // must not hang
  EXPECT_TRUE(r.is_error);
  EXPECT_TRUE(Write("fifo").is_error);
  EXPECT_TRUE(Read("subdir").is_error);
  EXPECT_TRUE(Write("subdir").is_error);
}

// A folder is swapped for a symlink to / (and to the outside folder) in a loop on another
// thread while reads and writes run: nothing outside may ever be read or written.
TEST_P(PathSecurity, SwapRace) {
  fs::path d = sb_.ws() / "d";
  fs::path tmp = sb_.ws() / "d.tmp";
  fs::create_directories(d);
  WriteText(d / "secret.txt", "inside\n");
  fs::create_symlink(sb_.outside(), sb_.ws() / "evil");
  std::atomic<bool> stop{false};
  std::thread swapper([&] {
    while (!stop) {
      ::rename(d.c_str(), tmp.c_str());
      ::symlink(sb_.outside().c_str(), d.c_str());
      ::unlink(d.c_str());
      ::symlink("/", d.c_str());
      ::unlink(d.c_str());
      ::rename(tmp.c_str(), d.c_str());
    }
  });
  int leaks = 0;
  for (int i = 0; i < 400; ++i) {
    Result r = Read("d/secret.txt");
    if (!r.is_error && r.for_llm.find("TOP SECRET") != std::string::npos) ++leaks;
    Write("d/new.txt", "x");
    Result e = Read("d/etc/hostname");
    if (!e.is_error) ++leaks;
  }
  stop = true;
  swapper.join();
  EXPECT_EQ(leaks, 0);
  ExpectOutsideUntouched();
  EXPECT_FALSE(fs::exists("/new.txt"));
}

INSTANTIATE_TEST_SUITE_P(Modes, PathSecurity,
                         ::testing::Values(FsResolveMode::kAuto, FsResolveMode::kWalk),
                         [](const auto& info) {
                           return info.param == FsResolveMode::kAuto ? "openat2" : "walk";
                         });

TEST(WorkspaceFs, RelativizeIsComponentWise) {
  Sandbox sb;
  auto ws = WorkspaceFs::Open(sb.ws().string(), {});
  ASSERT_TRUE(ws);
  EXPECT_TRUE((*ws)->Contains(sb.ws().string() + "/a"));
  EXPECT_TRUE((*ws)->Contains(sb.ws().string()));
  EXPECT_FALSE((*ws)->Contains(sb.ws().string() + "-evil/a"));
  EXPECT_FALSE((*ws)->Contains("/"));
  auto rel = (*ws)->Relativize(sb.ws().string() + "//a/./b");
  ASSERT_TRUE(rel);
  EXPECT_EQ(*rel, "a/b");
  EXPECT_FALSE((*ws)->Relativize("/etc/passwd"));
}

TEST(WorkspaceFs, AtomicWriteKeepsModeAndLeavesNoTemp) {
  Sandbox sb;
  auto ws = WorkspaceFs::Open(sb.ws().string(), {});
  ASSERT_TRUE(ws);
  WriteText(sb.ws() / "run.sh", "#!/bin/sh\n");
  fs::permissions(sb.ws() / "run.sh", fs::perms(0750));
  ASSERT_TRUE((*ws)->WriteFileAtomic("run.sh", "#!/bin/sh\necho hi\n"));
  EXPECT_EQ(fs::status(sb.ws() / "run.sh").permissions(), fs::perms(0750));
  EXPECT_EQ(ReadText(sb.ws() / "run.sh"), "#!/bin/sh\necho hi\n");
  // Failure (target is a folder): no temp file is left behind.
  fs::create_directories(sb.ws() / "dir");
  EXPECT_FALSE((*ws)->WriteFileAtomic("dir", "x"));
  // Failure after the temp file exists: a read-only folder refuses the rename target? Use a
  // folder we cannot write to at all, so the temp create itself fails.
  fs::create_directories(sb.ws() / "ro");
  fs::permissions(sb.ws() / "ro", fs::perms(0555));
  auto w = (*ws)->WriteFileAtomic("ro/x.txt", "x");
  if (::geteuid() != 0) {
    EXPECT_FALSE(w);
  }
  fs::permissions(sb.ws() / "ro", fs::perms(0755));
  for (auto& e : fs::recursive_directory_iterator(sb.ws()))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

}  // namespace
}  // namespace clawtools::testing_fs
