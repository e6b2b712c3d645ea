// One link of the registry's call pipeline (Envoy-style filter chain).
//
// For every call the registry runs, in order:
//   resolve tool -> build CallContext -> filters' OnRequest (in order) -> parse + validate args
//   -> Tool::Execute (exceptions contained) -> filters' OnResult (reverse order) -> call log.
// A filter that returns a Result from OnRequest stops the chain: the tool never runs, but every
// filter's OnResult still sees that result (so scrubbing applies to pipeline errors too).
// Filters are shared across threads: keep per-call state in CallState, never in members.
#pragma once

#include <optional>
#include <string_view>

#include "core/call_context.h"
#include "core/json.h"
#include "core/result.h"
#include "core/tool.h"

namespace clawtools {

class Registry;

struct CallState {
  const CallRequest& request;
  const CallContext& ctx;
  const Tool& tool;
  // The registry running the call (a clone shares its parent's filters, so a filter that needs
  // the tool set reads it from here).
  const Registry* registry = nullptr;
};

class CallFilter {
 public:
  virtual ~CallFilter() = default;
  virtual std::string_view name() const = 0;
  virtual std::optional<Result> OnRequest(const CallState&) { return std::nullopt; }
  virtual void OnResult(const CallState&, Result&) {}
};

}  // namespace clawtools
