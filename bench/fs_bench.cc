// Filesystem tool benchmarks: read/write/edit latency on small files, and search and glob
// over the generated tree (bench/fs_tree.h) next to ripgrep, find and fdfind run on the same
// tree. The tree lives in $CLAWTOOLS_FS_TREE (default /tmp/clawtools-fs-tree) and is
// generated once.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "bench/fs_tree.h"
#include "tools/fs/fs_tools.h"

namespace clawtools {
namespace {

namespace fs = std::filesystem;

std::string TreeDir() {
  const char* env = std::getenv("CLAWTOOLS_FS_TREE");
  std::string dir = env ? env : "/tmp/clawtools-fs-tree";
  bench::GenerateFsTree(dir);
  return dir;
}

struct Fixture {
  explicit Fixture(const std::string& ws) {
    FsOptions o;
    o.workspace = ws;
    for (auto& t : MakeFsTools(o)) tools[t->name()] = t;
  }
  Result Call(const std::string& name, const Json& args) const {
    return tools.at(name)->Execute(ctx, args);
  }
  std::map<std::string, std::shared_ptr<const Tool>> tools;
  CallContext ctx;
};

std::string SmallWorkspace() {
  static const std::string dir = [] {
    std::string d = (fs::temp_directory_path() / "clawtools-fs-bench-ws").string();
    fs::create_directories(d);
    std::string text;
    for (int i = 0; i < 1000; ++i) text += "line " + std::to_string(i) + " of the benchmark file\n";
    Fixture(d).Call("write_file", {{"path", "read.txt"}, {"content", text}});
    return d;
  }();
  return dir;
}

void BM_ReadFile(benchmark::State& state) {
  Fixture f(SmallWorkspace());
  for (auto _ : state) benchmark::DoNotOptimize(f.Call("read_file", {{"path", "read.txt"}}));
}
BENCHMARK(BM_ReadFile)->Unit(benchmark::kMicrosecond);

void BM_WriteFile4K(benchmark::State& state) {  // includes fsync of file and folder
  Fixture f(SmallWorkspace());
  std::string content(4096, 'x');
  for (auto _ : state)
    benchmark::DoNotOptimize(f.Call("write_file", {{"path", "w.txt"}, {"content", content}}));
}
BENCHMARK(BM_WriteFile4K)->Unit(benchmark::kMicrosecond);

void BM_EditFile(benchmark::State& state) {
  Fixture f(SmallWorkspace());
  f.Call("write_file", {{"path", "e.txt"}, {"content", std::string(20000, 'a') + "\nMARK0\n"}});
  int i = 0;
  for (auto _ : state) {
    std::string from = "MARK" + std::to_string(i), to = "MARK" + std::to_string(++i);
    benchmark::DoNotOptimize(
        f.Call("edit_file", {{"path", "e.txt"}, {"old_string", from}, {"new_string", to}}));
  }
}
BENCHMARK(BM_EditFile)->Unit(benchmark::kMicrosecond);

void BM_Search(benchmark::State& state, const char* pattern, const char* mode) {
  Fixture f(TreeDir());
  for (auto _ : state)
    benchmark::DoNotOptimize(
        f.Call("search", {{"pattern", pattern}, {"output_mode", mode}, {"head_limit", 1 << 30}}));
}
BENCHMARK_CAPTURE(BM_Search, literal, "needle_xyzzy", "files_with_matches")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Search, regex, "register\\w+Handler", "files_with_matches")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Search, content, "needle_\\w+", "content")->Unit(benchmark::kMillisecond);

void BM_External(benchmark::State& state, const char* cmd) {
  std::string line = std::string(cmd) + " " + TreeDir() + " >/dev/null 2>&1";
  for (auto _ : state) benchmark::DoNotOptimize(std::system(line.c_str()));
}
BENCHMARK_CAPTURE(BM_External, rg_literal, "rg -l needle_xyzzy")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_External, rg_regex, "rg -l 'register\\w+Handler'")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_External, rg_content, "rg -n 'needle_\\w+'")->Unit(benchmark::kMillisecond);

void BM_Glob(benchmark::State& state) {
  Fixture f(TreeDir());
  for (auto _ : state)
    benchmark::DoNotOptimize(f.Call("glob", {{"pattern", "**/*7.txt"}, {"limit", 1 << 20}}));
}
BENCHMARK(BM_Glob)->Unit(benchmark::kMillisecond);

void BM_FindCmd(benchmark::State& state, const char* tool) {
  std::string line = std::string(tool) == "find"
                         ? "find " + TreeDir() + " -name '*7.txt' >/dev/null"
                         : "fdfind -u -g '*7.txt' . " + TreeDir() + " >/dev/null 2>&1";
  for (auto _ : state) benchmark::DoNotOptimize(std::system(line.c_str()));
}
BENCHMARK_CAPTURE(BM_FindCmd, find, "find")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FindCmd, fdfind, "fdfind")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace clawtools

BENCHMARK_MAIN();
