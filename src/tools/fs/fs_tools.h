// The filesystem tools: read_file, write_file, edit_file, list_files, search, glob.
// All share one FsEnv (options + virtual-file routers); each is thread-safe.
#pragma once

#include <memory>
#include <vector>

#include "core/tool.h"
#include "tools/fs/fs_options.h"
#include "tools/fs/virtual_files.h"

namespace clawtools {

std::vector<std::shared_ptr<const Tool>> MakeFsTools(
    FsOptions options, std::vector<std::shared_ptr<const VirtualFileRouter>> routers = {});

}  // namespace clawtools
