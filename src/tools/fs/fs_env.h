// FsEnv: what the six fs tools share. Picks the root for a user path (the call's workspace
// or a configured extra root), opens it as a WorkspaceFs, and finds the virtual-file router
// that owns a path. Immutable and thread-safe; one instance shared by all the tools.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/call_context.h"
#include "core/error.h"
#include "tools/fs/fs_options.h"
#include "tools/fs/virtual_files.h"
#include "tools/fs/workspace_fs.h"

namespace clawtools {

using RouterList = std::vector<std::shared_ptr<const VirtualFileRouter>>;

struct FsTarget {
  std::shared_ptr<const WorkspaceFs> fs;
  std::string rel;  // root-relative, not yet resolved
  bool in_workspace = true;
  std::string display;  // how tool output names the path (workspace-relative, or absolute)
};

class FsEnv {
 public:
  FsEnv(FsOptions options, RouterList routers)
      : options_(std::move(options)), routers_(std::move(routers)) {}

  const FsOptions& options() const { return options_; }
  const RouterList& routers() const { return routers_; }
  // Threads for search and glob walks: options().search_threads, else min(cores, 4), at least 2
  // (one thread's syscalls overlap the other's matching even on one core).
  int WalkThreads() const;

  // The call's workspace folder: ctx.workspace(), else the configured default.
  std::string WorkspaceRoot(const CallContext& ctx) const;
  // Opens the workspace root. With kWrite the folder is created when missing.
  Expected<std::shared_ptr<const WorkspaceFs>> OpenWorkspace(const CallContext& ctx,
                                                             FsAccess access) const;
  // Chooses and opens the root for `user_path`. Relative paths belong to the workspace;
  // absolute ones to the workspace or an extra root that textually contains them, else
  // kPermissionDenied. Writes to a read-only extra root are refused.
  Expected<FsTarget> Target(const CallContext& ctx, std::string_view user_path,
                            FsAccess access) const;

  struct Routed {
    const VirtualFileRouter* router;
    std::string rel;  // normalised workspace-relative path
  };
  // The router that handles `user_path`, if any (asked in order, first wins).
  std::optional<Routed> Route(const CallContext& ctx, std::string_view user_path) const;
  // Lexically normalised workspace-relative form of `user_path` ('a/b', "" for the root), or
  // nullopt when it leaves the workspace textually or is malformed.
  std::optional<std::string> VirtualRel(const CallContext& ctx, std::string_view user_path) const;

 private:
  FsOptions options_;
  RouterList routers_;
};

}  // namespace clawtools
