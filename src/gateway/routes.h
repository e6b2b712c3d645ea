// The gateway's built-in routes:
//   GET  /healthz                 200 {"status":"ok","version":v,"tools":n}   (no token needed)
//   GET  /v1/tools                tool definitions the model would get. Query: agent, provider,
//                                 subagent_depth, group_allow (comma-separated),
//                                 format=openai|anthropic (default openai); explain=1 returns
//                                 Runtime::ExplainTools instead. 400 on a bad parameter.
//   POST /v1/tools/{name}/invoke  runs the tool through Runtime::Call (invoke_request.h for the
//                                 body); 200 with OutcomeToJson whenever the call was
//                                 dispatched, even when the tool failed; 400 for a bad body.
#pragma once

#include <stop_token>

#include "gateway/router.h"
#include "runtime/runtime.h"

namespace clawtools {

// `shutdown` becomes every invocation's cancel token, so tools that honour cancellation end
// when the gateway gives up waiting for them at shutdown.
void AddCoreRoutes(Router& router, const Runtime& runtime, std::stop_token shutdown);

}  // namespace clawtools
