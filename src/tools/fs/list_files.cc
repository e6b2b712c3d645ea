#include "tools/fs/list_files.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <map>

#include "tools/fs/args.h"
#include "tools/fs/dir_walker.h"

namespace clawtools {
namespace {

Json Schema() {
  return Json::parse(R"({
    "type": "object",
    "properties": {
      "path": {"type": "string", "description": "Folder to list, relative to the workspace or absolute inside it (default: the workspace root)."},
      "depth": {"type": "integer", "minimum": 1, "description": "How many levels to descend (default 1: only the folder's own entries)."}
    }
  })");
}

std::string Join(std::string_view dir, std::string_view name) {
  return dir.empty() ? std::string(name) : std::string(dir) + "/" + std::string(name);
}

// Orders paths component by component, so "a/b" sorts right after "a" and before "a.txt".
bool PathLess(const std::string& a, const std::string& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i] == b[i]) continue;
    if (a[i] == '/') return true;
    if (b[i] == '/') return false;
    return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
  }
  return a.size() < b.size();
}

struct Lister {
  const WorkspaceFs& fs;
  size_t cap;
  int max_depth;
  std::map<std::string, std::string, decltype(&PathLess)> lines{&PathLess};
  bool truncated = false;

  // `rel`: root-relative path of the folder `fd`; `shown`: its path relative to the listing.
  void List(int fd, const std::string& rel, const std::string& shown, int depth) {
    auto entries = ReadDirEntries(fd);
    if (!entries) return;
    std::sort(entries->begin(), entries->end(),
              [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    for (const auto& e : *entries) {
      std::string erel = Join(rel, e.name), eshown = Join(shown, e.name);
      if (fs.IsDenied(erel, FsAccess::kRead)) continue;
      if (lines.size() >= cap) {
        truncated = true;
        return;
      }
      struct stat st {};
      ::fstatat(fd, e.name.c_str(), &st, AT_SYMLINK_NOFOLLOW);
      if (e.type == DT_DIR) {
        lines[eshown] = "[dir]  " + eshown + "/";
        if (depth < max_depth && e.name != ".git") {
          UniqueFd sub(
              ::openat(fd, e.name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
          if (sub.valid()) List(sub.get(), erel, eshown, depth + 1);
        }
      } else if (e.type == DT_LNK) {
        char buf[4096];
        ssize_t n = ::readlinkat(fd, e.name.c_str(), buf, sizeof buf - 1);
        lines[eshown] =
            "[link] " + eshown + " -> " + (n > 0 ? std::string(buf, static_cast<size_t>(n)) : "?");
      } else if (e.type == DT_REG) {
        lines[eshown] = "[file] " + eshown + " (" + std::to_string(st.st_size) + " bytes)";
      } else {
        lines[eshown] = "[other] " + eshown;
      }
    }
  }
};

}  // namespace

ListFilesTool::ListFilesTool(std::shared_ptr<const FsEnv> env)
    : SimpleTool("list_files",
                 "List a folder's files and subfolders with their type and size, sorted by "
                 "path. Use depth > 1 to see nested folders. For finding files by name pattern "
                 "use glob; for finding text use search.",
                 Schema()),
      env_(std::move(env)) {}

Result ListFilesTool::Execute(const CallContext& ctx, const Json& args) const {
  const FsOptions& o = env_->options();
  auto path = StringArg(args, "path", ".");
  if (!path) return Result::FromError(path.error());
  if (path->empty()) *path = ".";
  auto depth = IntArg(args, "depth", 1, 1, o.list_max_depth);
  if (!depth) return Result::FromError(depth.error());

  auto target = env_->Target(ctx, *path, FsAccess::kRead);
  bool disk_missing = false;
  std::string display = *path;
  std::map<std::string, std::string, decltype(&PathLess)> lines{&PathLess};
  bool truncated = false;
  if (target) {
    display = target->display;
    auto dir = target->fs->OpenDir(target->rel);
    if (dir) {
      if (!S_ISDIR(dir->st.st_mode)) return Result::Fail(display + " is not a folder");
      Lister l{.fs = *target->fs, .cap = o.list_max_entries, .max_depth = static_cast<int>(*depth)};
      l.List(dir->fd.get(), dir->rel, "", 1);
      lines = std::move(l.lines);
      truncated = l.truncated;
    } else if (dir.error().code == ErrorCode::kNotFound) {
      disk_missing = true;
    } else {
      return Result::FromError(dir.error());
    }
  } else if (target.error().code == ErrorCode::kNotFound) {
    disk_missing = true;
  } else {
    return Result::FromError(target.error());
  }

  size_t virtual_count = 0;
  if (auto vrel = env_->VirtualRel(ctx, *path)) {
    for (const auto& r : env_->routers()) {
      auto entries = r->List(ctx, *vrel);
      if (!entries) continue;
      for (const auto& e : *entries) {
        std::string_view p = e.path;
        if (!vrel->empty()) {
          if (!p.starts_with(*vrel) || p.size() <= vrel->size() || p[vrel->size()] != '/') continue;
          p.remove_prefix(vrel->size() + 1);
        }
        if (std::count(p.begin(), p.end(), '/') >= *depth) continue;
        if (lines.size() >= o.list_max_entries) {
          truncated = true;
          break;
        }
        lines[std::string(p)] =
            "[file] " + std::string(p) + " (" + std::to_string(e.size) + " bytes, virtual)";
        ++virtual_count;
      }
    }
  }
  if (disk_missing && virtual_count == 0)
    return Result::Fail("folder does not exist: " + display, ErrorCode::kNotFound);
  if (lines.empty()) return Result::Text(display + " is empty");
  std::string out;
  for (const auto& [_, line] : lines) out += line + "\n";
  if (truncated)
    out += "[Listing stopped at " + std::to_string(o.list_max_entries) +
           " entries. List a subfolder or use a smaller depth, or use glob to find specific "
           "files.]\n";
  return Result::Text(std::move(out));
}

}  // namespace clawtools
