// search: grep the workspace with an RE2 regex, like ripgrep. Honours .gitignore files (nested,
// negation, folder-only, anchored, **), skips `.git/`, binary files (a NUL byte), hardlinked
// and oversized files, and never follows symlinks. Virtual files are searched too.
//
// Speed: the tree is walked by a small thread pool, each file is read in one go into a reused
// buffer and matched as a whole (one RE2 or memmem pass over the buffer; line boundaries are
// found only around matches). Output is sorted by path, so results are deterministic.
#pragma once

#include <memory>

#include "core/tool.h"
#include "tools/fs/fs_env.h"

namespace clawtools {

class SearchTool : public SimpleTool {
 public:
  explicit SearchTool(std::shared_ptr<const FsEnv> env);
  Result Execute(const CallContext& ctx, const Json& args) const override;

 private:
  std::shared_ptr<const FsEnv> env_;
};

}  // namespace clawtools
