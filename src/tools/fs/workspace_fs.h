// WorkspaceFs: every filesystem access beneath one root folder, with the kernel's help.
//
// The root is opened once (an O_DIRECTORY fd owned here) and every path is resolved relative
// to that fd with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS). When the kernel lacks
// openat2 (ENOSYS), or refuses an absolute symlink that points back inside the root, a
// component walk takes over: one openat(O_NOFOLLOW) per component, symlinks read and
// re-resolved by us, ".." popped from our own stack of fds. All later I/O is fd-relative
// (openat, mkdirat, renameat, fstatat, unlinkat), so a directory swapped for a symlink during a
// call, a dangling symlink, "..", or a sibling such as "/ws-evil" never reaches outside.
//
// Symlinks whose target stays inside the root are followed; others fail with
// kPermissionDenied "path escapes the workspace".
//
// Hardlinks: a regular file with st_nlink > 1 is refused for reads and writes. A hardlink is
// indistinguishable from its outside twin, so refusing is the only way to keep an outside file
// (e.g. a hardlink to ~/.ssh/id_rsa made by a shell tool) from being read or rewritten.
//
// Deny rules match the resolved workspace-relative path. Thread-safe: all methods are const.
#pragma once

#include <sys/stat.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "tools/fs/fs_options.h"
#include "core/unique_fd.h"

namespace clawtools {

enum class FsAccess { kRead, kWrite };

class WorkspaceFs {
 public:
  struct Options {
    bool writable = true;
    std::vector<FsDenyRule> deny;
    FsResolveMode mode = FsResolveMode::kAuto;
  };

  // Opens `root`, which must be an existing directory. With `create`, creates it first
  // (mkdir -p: the root comes from configuration, not from the model).
  static Expected<std::shared_ptr<const WorkspaceFs>> Open(const std::string& root, Options opts,
                                                           bool create = false);

  // The root's canonical absolute path (symlinks resolved), without a trailing '/'.
  const std::string& root_path() const { return root_real_; }
  int root_fd() const { return root_.get(); }
  bool writable() const { return opts_.writable; }

  // Maps a user-supplied path to a root-relative one, textually: rejects NUL bytes, paths
  // longer than PATH_MAX and components longer than NAME_MAX; accepts an absolute path only when
  // it lies under the root (component-wise, so "/ws-evil" is not under "/ws"). The result may
  // still contain ".." and symlinks: resolution decides. kNotFound-free; errors are
  // kInvalidArgument or kPermissionDenied.
  Expected<std::string> Relativize(std::string_view user_path) const;
  // True when `abs_path` is textually under this root (either as configured or canonical).
  bool Contains(std::string_view abs_path) const;

  struct Opened {
    UniqueFd fd;
    struct stat st {};
    std::string rel;  // resolved, canonical root-relative path ("" = the root)
  };

  // Opens an existing regular file for reading. Refuses directories, devices, FIFOs,
  // hardlinked files and denied paths.
  Expected<Opened> OpenFile(std::string_view rel, FsAccess access = FsAccess::kRead) const;
  // Opens an existing directory (O_RDONLY | O_DIRECTORY) for listing.
  Expected<Opened> OpenDir(std::string_view rel) const;
  // Resolves an existing path of any type (O_PATH), following in-root symlinks.
  Expected<Opened> Stat(std::string_view rel) const;

  // Reads a whole regular file; kInvalidArgument when it is larger than max_bytes.
  Expected<std::string> ReadFile(std::string_view rel, size_t max_bytes,
                                 FsAccess access = FsAccess::kRead) const;

  struct WriteOutcome {
    std::string rel;  // resolved path written (differs from the input when it was a symlink)
    bool created = false;
  };
  // Replaces the file's content atomically: a temp file in the same folder, fsync, rename,
  // fsync of the folder. Keeps the existing file's permission bits (new files: 0644 minus
  // umask). Creates missing parent folders when `create_parents`. A leaf symlink is followed
  // (its in-root target is written, even when it does not exist yet). On failure the temp file
  // is removed and the old content is untouched.
  Expected<WriteOutcome> WriteFileAtomic(std::string_view rel, std::string_view content,
                                         bool create_parents = true) const;

  // True when the resolved root-relative path `rel` falls under a deny rule for `access`.
  bool IsDenied(std::string_view resolved_rel, FsAccess access) const;

 private:
  WorkspaceFs(UniqueFd root, std::string configured, std::string real, Options opts)
      : root_(std::move(root)),
        root_configured_(std::move(configured)),
        root_real_(std::move(real)),
        opts_(std::move(opts)) {}

  // Resolves `rel` beneath the root and opens it with `flags` (O_NOFOLLOW is implied for the
  // last component when !follow_last). Returns errno-derived errors.
  Expected<Opened> Resolve(std::string_view rel, int flags, bool follow_last = true) const;
  Expected<Opened> ResolveWalk(std::string_view rel, int flags, bool follow_last) const;
  // Converts the kernel's view of an fd's path to a root-relative path.
  Expected<std::string> RelOfFd(int fd) const;
  // Opens (and with `create`, makes) the directory `rel` for writing into.
  Expected<Opened> OpenParentDir(std::string_view rel, bool create) const;
  // Maps an absolute path under the root (configured or canonical form) to a relative one.
  std::optional<std::string> StripRoot(std::string_view abs_path) const;

  UniqueFd root_;
  std::string root_configured_;  // lexically cleaned, absolute
  std::string root_real_;
  Options opts_;
};

// Error for a path that resolves outside its root.
Error EscapeError(std::string_view user_path);

}  // namespace clawtools
