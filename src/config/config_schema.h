// The JSON Schema of the config file. Every object is closed (additionalProperties: false),
// so a misspelt key is an error that names it. Extend it when a feature adds keys.
#pragma once

#include "core/json.h"

namespace clawtools {

const Json& ConfigSchema();

}  // namespace clawtools
