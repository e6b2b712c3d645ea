// Tool definitions as LLM providers expect them.
#pragma once

#include <memory>
#include <vector>

#include "core/json.h"
#include "core/tool.h"

namespace clawtools {

// {"type":"function","function":{"name","description","parameters"}}
Json OpenAIToolDef(const Tool& tool, std::string_view name_override = {});
// {"name","description","input_schema"}; $ref/$defs are not accepted there and are inlined
// away by the caller's schema, so they are dropped here.
Json AnthropicToolDef(const Tool& tool, std::string_view name_override = {});

// A schema providers accept: an object schema, with "properties" present.
Json NormalizeParameters(const Json& parameters);

}  // namespace clawtools
