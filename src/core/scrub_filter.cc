#include "core/scrub_filter.h"

namespace clawtools {

void ScrubFilter::OnResult(const CallState&, Result& result) {
  if (!result.for_llm.empty()) result.for_llm = scrubber_->Scrub(result.for_llm);
  if (!result.for_user.empty()) result.for_user = scrubber_->Scrub(result.for_user);
}

}  // namespace clawtools
