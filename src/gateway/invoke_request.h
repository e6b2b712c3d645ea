// The body of POST /v1/tools/{name}/invoke:
//   {"args": {...}, "session": s, "channel": s, "chat_id": s, "peer_kind": "direct"|"group",
//    "agent": s, "user": s, "provider": s, "group_allow": [s...], "subagent_depth": n,
//    "timeout_ms": n}
// Every field is optional (null counts as absent); an empty body is {}. Unknown fields are
// rejected so a misspelt field fails loudly instead of silently running with defaults.
#pragma once

#include <string>
#include <string_view>

#include "core/call_context.h"
#include "core/error.h"

namespace clawtools {

// A CallRequest for `tool`, or kInvalidArgument with a message naming the offending field.
Expected<CallRequest> ParseInvokeRequest(std::string tool, std::string_view body);

}  // namespace clawtools
