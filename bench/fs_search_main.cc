// fs_search PATTERN DIR [files_with_matches|content|count] [-i]
// fs_search --generate DIR [FILES] [AVG_BYTES]
// Runs the search tool over DIR (as the workspace) and prints its result, for timing side by
// side with ripgrep (bench/search_vs_rg.sh). --generate writes the benchmark tree.
#include <cstdio>
#include <cstring>
#include <string>

#include "bench/fs_tree.h"
#include "tools/fs/fs_tools.h"

using namespace clawtools;

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--generate") == 0) {
    bench::GenerateFsTree(argv[2], argc > 3 ? std::atoi(argv[3]) : 20000,
                          argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 10000);
    return 0;
  }
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: fs_search PATTERN DIR [mode] [-i]\n       fs_search --generate DIR "
                 "[FILES] [AVG_BYTES]\n");
    return 2;
  }
  FsOptions o;
  o.workspace = argv[2];
  std::shared_ptr<const Tool> search;
  for (auto& t : MakeFsTools(o))
    if (t->name() == "search") search = t;
  Json args = {{"pattern", argv[1]}, {"head_limit", 1 << 30}};
  if (argc > 3) args["output_mode"] = argv[3];
  if (argc > 4 && std::strcmp(argv[4], "-i") == 0) args["case_insensitive"] = true;
  CallRequest req;
  CallContext ctx(req, "search", "", CallContext::Clock::time_point::max(), {});
  Result r = search->Execute(ctx, args);
  std::fwrite(r.for_llm.data(), 1, r.for_llm.size(), stdout);
  std::fputc('\n', stdout);
  return r.is_error ? 1 : 0;
}
