// write_file: replaces (or, with append, extends) a file's content atomically, creating missing
// parent folders. The file's permission bits are kept. Content larger than write_max_bytes
// is refused. Virtual files go to their router.
#pragma once

#include <memory>

#include "core/tool.h"
#include "tools/fs/fs_env.h"

namespace clawtools {

class WriteFileTool : public SimpleTool {
 public:
  explicit WriteFileTool(std::shared_ptr<const FsEnv> env);
  Result Execute(const CallContext& ctx, const Json& args) const override;

 private:
  std::shared_ptr<const FsEnv> env_;
};

}  // namespace clawtools
