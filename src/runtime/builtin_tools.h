// Registers the native tools and their aliases into a registry, configured from the config.
#pragma once

#include <string>

#include "config/config.h"
#include "core/registry.h"
#include "tools/fs/virtual_files.h"

namespace clawtools {

// `routers` back the virtual files (context files and memory, kept in the store).
Status RegisterBuiltinTools(const Config& config, const std::string& workspace,
                            std::vector<std::shared_ptr<const VirtualFileRouter>> routers,
                            Registry& registry);

}  // namespace clawtools
