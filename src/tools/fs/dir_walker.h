// Directory reading and a parallel, .gitignore-aware tree walk beneath a WorkspaceFs root.
//
// The walk descends by fd only (openat with O_NOFOLLOW | O_DIRECTORY from the parent's fd), so
// it never leaves the root: symlinks are reported but never followed. It skips `.git/`, the
// root's read-deny rules and, when asked, whatever .gitignore files (including those of the
// start folder's ancestors) exclude.
#pragma once

#include <dirent.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "tools/fs/workspace_fs.h"

namespace clawtools {

struct DirEntry {
  std::string name;
  unsigned char type = DT_UNKNOWN;  // DT_REG, DT_DIR, DT_LNK, ...; resolved with fstatat when
                                    // the file system does not report it
};

// All entries of the open folder `dirfd` except "." and "..", in readdir order.
Expected<std::vector<DirEntry>> ReadDirEntries(int dirfd);

struct WalkEntry {
  int dirfd;              // the folder holding the entry; valid during the callback only
  std::string_view name;  // name within dirfd
  std::string_view rel;   // root-relative path
  unsigned char type;
};

struct WalkOptions {
  int threads = 1;
  bool gitignore = true;
  int max_depth = -1;  // entries at most this many levels below the start; -1: unlimited
};

// Walks the tree below `start_rel` and calls `visit` for each entry, concurrently from up to
// `threads` threads. `visit` returns false to stop the walk early. Returns the resolved,
// root-relative path of the start folder, or the error opening it.
Expected<std::string> WalkTree(const WorkspaceFs& fs, std::string_view start_rel,
                               const WalkOptions& options,
                               const std::function<bool(const WalkEntry&)>& visit);

}  // namespace clawtools
