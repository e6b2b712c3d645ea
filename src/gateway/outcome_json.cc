#include "gateway/outcome_json.h"

namespace clawtools {

Json OutcomeToJson(const CallOutcome& outcome) {
  return Json{
      {"tool", outcome.tool},
      {"for_llm", outcome.result.for_llm},
      {"for_user", outcome.result.for_user},
      {"is_error", outcome.result.is_error},
      {"duration_ms", static_cast<double>(outcome.duration.count()) / 1000.0},
  };
}

}  // namespace clawtools
