#include "tools/fs/fs_tools.h"

#include "tools/fs/edit_file.h"
#include "tools/fs/fs_env.h"
#include "tools/fs/glob.h"
#include "tools/fs/list_files.h"
#include "tools/fs/read_file.h"
#include "tools/fs/search.h"
#include "tools/fs/write_file.h"

namespace clawtools {

std::vector<std::shared_ptr<const Tool>> MakeFsTools(
    FsOptions options, std::vector<std::shared_ptr<const VirtualFileRouter>> routers) {
  auto env = std::make_shared<const FsEnv>(std::move(options), std::move(routers));
  return {
      std::make_shared<ReadFileTool>(env), std::make_shared<WriteFileTool>(env),
      std::make_shared<EditFileTool>(env), std::make_shared<ListFilesTool>(env),
      std::make_shared<SearchTool>(env),   std::make_shared<GlobTool>(env),
  };
}

}  // namespace clawtools
