// The JSON object that reports one tool call to a script: shared by `clawtools call` and the
// gateway's invoke route so both print exactly the same thing.
#pragma once

#include "core/json.h"
#include "core/registry.h"

namespace clawtools {

// {"tool", "for_llm", "for_user", "is_error", "duration_ms"}; duration_ms is a number with
// microsecond precision (123 us -> 0.123). for_user is "" when the tool set none.
Json OutcomeToJson(const CallOutcome& outcome);

}  // namespace clawtools
