// Registers the native tools and their aliases into a registry, configured from the config.
#pragma once

#include <string>

#include "config/config.h"
#include "core/registry.h"

namespace clawtools {

Status RegisterBuiltinTools(const Config& config, const std::string& workspace, Registry& registry);

}  // namespace clawtools
