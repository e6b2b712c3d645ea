// glob: files whose path (relative to `path`) matches a glob pattern (** * ? [...] {a,b}; see
// glob_pattern.h), newest first by default or by name. Honours .gitignore and skips `.git/`
// like search; never follows symlinks. Virtual files are matched too. Capped with a note.
#pragma once

#include <memory>

#include "core/tool.h"
#include "tools/fs/fs_env.h"

namespace clawtools {

class GlobTool : public SimpleTool {
 public:
  explicit GlobTool(std::shared_ptr<const FsEnv> env);
  Result Execute(const CallContext& ctx, const Json& args) const override;

 private:
  std::shared_ptr<const FsEnv> env_;
};

}  // namespace clawtools
