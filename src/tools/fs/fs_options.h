// Configuration shared by the six filesystem tools (read_file, write_file, edit_file,
// list_files, search, glob). Immutable after MakeFsTools(); per-call values come from the
// CallContext.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clawtools {

// A folder outside the workspace the tools may reach by absolute path (e.g. skills folders).
struct FsRoot {
  std::string path;
  bool writable = false;  // read-only unless configured otherwise
};

// A workspace-relative path ('/'-separated, e.g. ".git" or "data/store.db") the tools refuse.
// Matched on the *resolved* path, so "./.git/../.git/config" and symlinks into it are caught.
struct FsDenyRule {
  std::string rel_path;
  bool writes_only = false;  // true: reads allowed, writes refused (e.g. ".git")
};

// How WorkspaceFs resolves paths. kAuto uses openat2(RESOLVE_BENEATH) and falls back to a
// component walk when the kernel lacks it; kWalk forces the walk (tests exercise both).
enum class FsResolveMode { kAuto, kWalk };

struct FsOptions {
  // Used when ctx.workspace() is empty.
  std::string workspace;
  std::vector<FsRoot> extra_roots;
  // Default: the tools may read .git but never write it (hooks there run code).
  std::vector<FsDenyRule> deny = {{".git", true}};
  FsResolveMode resolve_mode = FsResolveMode::kAuto;

  // read_file
  size_t read_max_file_bytes = 32u << 20;
  size_t read_default_lines = 2000;
  size_t read_max_line_chars = 2000;
  size_t read_max_output_bytes = 512u << 10;
  // write_file / edit_file: final file size.
  size_t write_max_bytes = 16u << 20;
  // list_files
  size_t list_max_entries = 1000;
  int list_max_depth = 10;
  // search
  size_t search_default_head_limit = 250;
  size_t search_max_line_chars = 500;
  size_t search_max_file_bytes = 64u << 20;  // larger files are skipped
  int search_threads = 0;                    // 0: min(hardware threads, 4)
  // glob
  size_t glob_default_limit = 100;
};

}  // namespace clawtools
