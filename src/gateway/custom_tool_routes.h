// HTTP routes of custom tools (all behind the gateway token; handlers touch the store, so they
// run on the worker pool):
//   POST   /v1/custom-tools        body: the seed's JSON form (+ "agent_id"); env values are
//                                  encrypted on the way in. 201 with the stored tool; 400
//                                  invalid (unknown placeholder, bad name, env without a key);
//                                  409 the name shadows a built-in or exists in that scope
//   GET    /v1/custom-tools[?agent=ID|?scope=global]  every tool, or one agent's, or the global ones
//   GET    /v1/custom-tools/{id}   200; 404 unknown
//   PUT    /v1/custom-tools/{id}   body: the fields to change (env, when present, replaces the
//                                  whole map); 200 with the tool; 400/404/409 as above
//   DELETE /v1/custom-tools/{id}   200 {"removed": id}; 404 unknown
// Env values are never returned ("[encrypted]"). Every change publishes `cache:custom_tools`
// on `notifier` (this process reloads at once; other gateways hear it from the database).
#pragma once

#include "custom_tools/custom_tool_loader.h"
#include "custom_tools/custom_tool_store.h"
#include "custom_tools/event_notifier.h"
#include "gateway/router.h"

namespace clawtools {

// All three must outlive the router.
void AddCustomToolRoutes(Router& router, custom_tools::CustomToolStore& store,
                         custom_tools::CustomToolLoader& loader,
                         custom_tools::EventNotifier& notifier);

}  // namespace clawtools
