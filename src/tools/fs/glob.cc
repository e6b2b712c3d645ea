#include "tools/fs/glob.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <mutex>

#include "tools/fs/args.h"
#include "tools/fs/dir_walker.h"
#include "tools/fs/glob_pattern.h"

namespace clawtools {
namespace {

Json Schema() {
  return Json::parse(R"({
    "type": "object",
    "properties": {
      "pattern": {"type": "string", "description": "Glob matched against paths relative to `path`: * (within a folder), ** (any number of folders), ?, [abc], {a,b}. Examples: \"**/*.py\", \"src/**/*.{ts,tsx}\", \"*.md\" (top level only)."},
      "path": {"type": "string", "description": "Folder to search from, relative to the workspace or absolute inside it (default: the workspace root)."},
      "sort": {"type": "string", "enum": ["mtime", "name"], "description": "mtime (default): most recently modified first; name: alphabetical."},
      "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of paths to return (default 100)."}
    },
    "required": ["pattern"]
  })");
}

struct Match {
  std::string path;
  int64_t mtime_ns = 0;
};

// Number of components the patterns can span, or -1 when one has "**" (unbounded).
int MaxDepth(const std::vector<std::string>& patterns) {
  int depth = 0;
  for (const auto& p : patterns) {
    if (p.find("**") != std::string::npos) return -1;
    depth = std::max(depth, 1 + static_cast<int>(std::count(p.begin(), p.end(), '/')));
  }
  return depth;
}

// The leading components of `p` without glob metacharacters, as a folder to start from.
std::string LiteralDir(const std::string& p) {
  std::string dir;
  size_t start = 0;
  for (;;) {
    size_t slash = p.find('/', start);
    if (slash == std::string::npos) return dir;
    std::string_view comp(p.data() + start, slash - start);
    if (HasGlobMeta(comp) || comp.find('\\') != std::string_view::npos || comp == "..") return dir;
    dir = p.substr(0, slash);
    start = slash + 1;
  }
}

}  // namespace

GlobTool::GlobTool(std::shared_ptr<const FsEnv> env)
    : SimpleTool("glob",
                 "Find files by path pattern, e.g. \"**/*.cc\" or \"src/**/test_*.py\". Returns "
                 "paths sorted by modification time, newest first (or by name). Respects "
                 ".gitignore and skips .git. Use search to look inside files.",
                 Schema()),
      env_(std::move(env)) {}

Result GlobTool::Execute(const CallContext& ctx, const Json& args) const {
  const FsOptions& o = env_->options();
  auto pattern = StringArg(args, "pattern");
  if (!pattern) return Result::FromError(pattern.error());
  if (pattern->empty()) return Result::Fail("pattern is required");
  auto path = StringArg(args, "path", ".");
  if (!path) return Result::FromError(path.error());
  if (path->empty()) *path = ".";
  auto sort = StringArg(args, "sort", "mtime");
  if (!sort) return Result::FromError(sort.error());
  if (*sort != "mtime" && *sort != "name") return Result::Fail("sort must be mtime or name");
  auto limit = IntArg(args, "limit", static_cast<int64_t>(o.glob_default_limit), 1, 1 << 20);
  if (!limit) return Result::FromError(limit.error());

  std::string pat = *pattern;
  if (pat.front() == '/') {
    // An absolute pattern inside the search folder: make it relative.
    std::string base = *path == "." ? env_->WorkspaceRoot(ctx) : *path;
    if (base.front() != '/') base = env_->WorkspaceRoot(ctx) + "/" + base;
    while (base.size() > 1 && base.back() == '/') base.pop_back();
    if (!pat.starts_with(base + "/"))
      return Result::Fail("pattern must be relative to path (e.g. \"**/*.md\"), not absolute");
    pat = pat.substr(base.size() + 1);
  }
  while (pat.starts_with("./")) pat = pat.substr(2);
  std::vector<std::string> patterns = ExpandBraces(pat);
  // Start the walk at the deepest folder every pattern shares literally.
  std::string common = LiteralDir(patterns.front());
  for (const auto& p : patterns) {
    std::string d = LiteralDir(p);
    while (!common.empty() && !(d == common || d.starts_with(common + "/"))) {
      size_t slash = common.rfind('/');
      common = slash == std::string::npos ? "" : common.substr(0, slash);
    }
  }
  std::vector<std::string> sub;
  for (const auto& p : patterns) sub.push_back(common.empty() ? p : p.substr(common.size() + 1));
  int depth = MaxDepth(sub);

  std::mutex mu;
  std::vector<Match> matches;
  bool found_dir = false;
  auto target = env_->Target(ctx, *path, FsAccess::kRead);
  if (target) {
    const WorkspaceFs& fs = *target->fs;
    std::string prefix = target->in_workspace ? "" : fs.root_path() + "/";
    auto st = fs.Stat(target->rel);
    if (!st && st.error().code != ErrorCode::kNotFound) return Result::FromError(st.error());
    if (st && !S_ISDIR(st->st.st_mode)) return Result::Fail(*path + " is not a folder");
    if (st) {
      found_dir = true;
      std::string start = st->rel;
      std::string walk_from =
          common.empty() ? start : (start.empty() ? common : start + "/" + common);
      auto walk_dir = fs.Stat(walk_from);
      if (walk_dir && S_ISDIR(walk_dir->st.st_mode) &&
          (start.empty() || walk_dir->rel == start || walk_dir->rel.starts_with(start + "/"))) {
        std::string from = walk_dir->rel;
        auto walked = WalkTree(
            fs, from, WalkOptions{.threads = env_->WalkThreads(), .max_depth = depth},
            [&](const WalkEntry& e) {
              if (ctx.cancelled()) return false;
              if (e.type == DT_DIR) return true;
              std::string_view rel_sub = from.empty() ? e.rel : e.rel.substr(from.size() + 1);
              bool hit = false;
              for (const auto& p : sub)
                if (GlobMatch(p, rel_sub)) {
                  hit = true;
                  break;
                }
              if (!hit) return true;
              struct stat es {};
              ::fstatat(e.dirfd, std::string(e.name).c_str(), &es, AT_SYMLINK_NOFOLLOW);
              std::string shown =
                  start.empty() ? std::string(e.rel) : std::string(e.rel.substr(start.size() + 1));
              Match m{prefix.empty() ? shown : prefix + std::string(e.rel),
                      static_cast<int64_t>(es.st_mtim.tv_sec) * 1000000000 + es.st_mtim.tv_nsec};
              std::lock_guard lock(mu);
              matches.push_back(std::move(m));
              return true;
            });
        if (!walked && walked.error().code != ErrorCode::kNotFound)
          return Result::FromError(walked.error());
      }
    }
  } else if (target.error().code != ErrorCode::kNotFound) {
    return Result::FromError(target.error());
  }
  if (ctx.cancelled()) return Result::Fail("glob cancelled", ErrorCode::kCancelled);

  if (auto vrel = env_->VirtualRel(ctx, *path)) {
    std::vector<Match> virt;
    for (const auto& r : env_->routers()) {
      auto entries = r->List(ctx, *vrel);
      if (!entries) continue;
      found_dir = found_dir || !entries->empty();
      for (const auto& e : *entries) {
        if (!vrel->empty() && !e.path.starts_with(*vrel + "/")) continue;
        std::string below = vrel->empty() ? e.path : e.path.substr(vrel->size() + 1);
        for (const auto& p : patterns)
          if (GlobMatch(p, below)) {
            virt.push_back(Match{below, 0});
            break;
          }
      }
    }
    // Routed paths are answered by the router; drop their disk twins.
    std::erase_if(matches, [&](const Match& m) {
      std::string wrel = vrel->empty() ? m.path : *vrel + "/" + m.path;
      for (const auto& r : env_->routers())
        if (r->Handles(ctx, wrel)) return true;
      return false;
    });
    for (auto& v : virt) matches.push_back(std::move(v));
  }
  if (!found_dir) return Result::Fail("folder does not exist: " + *path, ErrorCode::kNotFound);
  if (matches.empty()) return Result::Text("No files match " + *pattern);

  if (*sort == "name") {
    std::sort(matches.begin(), matches.end(),
              [](const Match& a, const Match& b) { return a.path < b.path; });
  } else {
    std::sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) {
      return a.mtime_ns != b.mtime_ns ? a.mtime_ns > b.mtime_ns : a.path < b.path;
    });
  }
  size_t shown = std::min(matches.size(), static_cast<size_t>(*limit));
  std::string out;
  for (size_t i = 0; i < shown; ++i) out += matches[i].path + "\n";
  if (shown < matches.size())
    out += "[Showing " + std::to_string(shown) + " of " + std::to_string(matches.size()) +
           " matching files (" + (*sort == "name" ? "by name" : "newest first") +
           "). Use a more specific pattern or path, or raise limit.]\n";
  return Result::Text(std::move(out));
}

}  // namespace clawtools
