// edit_file: exact, byte-for-byte replacement of `old_string` by `new_string`. Fails when the
// old text is missing, or found more than once without replace_all (the error gives the count
// and the line numbers). The rewrite is atomic. Virtual files go to their router.
#pragma once

#include <memory>

#include "core/tool.h"
#include "tools/fs/fs_env.h"

namespace clawtools {

class EditFileTool : public SimpleTool {
 public:
  explicit EditFileTool(std::shared_ptr<const FsEnv> env);
  Result Execute(const CallContext& ctx, const Json& args) const override;

 private:
  std::shared_ptr<const FsEnv> env_;
};

}  // namespace clawtools
