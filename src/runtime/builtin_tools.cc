#include "runtime/builtin_tools.h"

#include <filesystem>

#include "tools/fs/fs_tools.h"

namespace clawtools {
namespace {

// Claude Code and legacy names that models trained on other harnesses emit. An alias whose
// tool is not registered (e.g. exec before the runtime issue) is skipped.
constexpr std::pair<const char*, const char*> kAliases[] = {
    {"Read", "read_file"},   {"Write", "write_file"}, {"Edit", "edit_file"},
    {"edit", "edit_file"},   {"LS", "list_files"},    {"Glob", "glob"},
    {"Grep", "search"},      {"bash", "exec"},        {"Bash", "exec"},
    {"WebFetch", "web_fetch"}, {"WebSearch", "web_search"}, {"Agent", "spawn"},
};

FsOptions MakeFsOptions(const Config& config, const std::string& workspace) {
  FsOptions opts;
  opts.workspace = workspace;
  const Json& fs = config.root().value(Json::json_pointer("/tools/fs"), Json::object());
  for (const auto& root : fs.value("allowed_paths", Json::array())) {
    opts.extra_roots.push_back({root.value("path", ""), root.value("writable", false)});
  }
  for (const auto& p : fs.value("deny_paths", Json::array())) {
    opts.deny.push_back({p.get<std::string>(), false});
  }
  if (fs.contains("max_read_bytes")) opts.read_max_file_bytes = fs["max_read_bytes"].get<size_t>();
  if (fs.contains("max_write_bytes")) opts.write_max_bytes = fs["max_write_bytes"].get<size_t>();
  // The store file must not be readable or writable through the fs tools when it lives inside
  // the workspace (it holds other users' files and, later, encrypted secrets).
  std::error_code ec;
  auto db = std::filesystem::absolute(config.db_url(), ec).lexically_normal();
  auto rel = db.lexically_relative(workspace);
  if (!ec && !rel.empty() && *rel.begin() != "..") {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
      opts.deny.push_back({rel.string() + suffix, false});
    }
  }
  return opts;
}

}  // namespace

Status RegisterBuiltinTools(const Config& config, const std::string& workspace,
                            std::vector<std::shared_ptr<const VirtualFileRouter>> routers,
                            Registry& registry) {
  for (auto& tool : MakeFsTools(MakeFsOptions(config, workspace), std::move(routers))) {
    if (auto s = registry.Register(std::move(tool)); !s) return s;
  }
  for (const auto& [alias, canonical] : kAliases) {
    if (registry.Get(canonical)) {
      if (auto s = registry.RegisterAlias(alias, canonical); !s) return s;
    }
  }
  return {};
}

}  // namespace clawtools
