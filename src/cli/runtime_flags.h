// Builds the Runtime from the flags every command shares (--config, --workspace, --db).
#pragma once

#include <memory>

#include "cli/commands.h"
#include "runtime/runtime.h"

namespace clawtools::cli {

Expected<std::unique_ptr<Runtime>> MakeRuntime(const CommonFlags& flags, LogLevel default_level);

}  // namespace clawtools::cli
