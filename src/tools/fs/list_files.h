// list_files: the entries of a folder, `depth` levels deep (default 1), one per line with
// their type and size, sorted by path. `.git/` is shown but not entered; denied paths are
// hidden; virtual files under the folder are merged in. Capped at list_max_entries.
#pragma once

#include <memory>

#include "core/tool.h"
#include "tools/fs/fs_env.h"

namespace clawtools {

class ListFilesTool : public SimpleTool {
 public:
  explicit ListFilesTool(std::shared_ptr<const FsEnv> env);
  Result Execute(const CallContext& ctx, const Json& args) const override;

 private:
  std::shared_ptr<const FsEnv> env_;
};

}  // namespace clawtools
