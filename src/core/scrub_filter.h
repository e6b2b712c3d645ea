// Pipeline filter: redacts credentials from for_llm and for_user (seed section 8).
// Runs on every result, including pipeline errors that may echo arguments.
#pragma once

#include <memory>

#include "core/filter.h"
#include "scrub/scrubber.h"

namespace clawtools {

class ScrubFilter : public CallFilter {
 public:
  explicit ScrubFilter(std::shared_ptr<const Scrubber> scrubber) : scrubber_(std::move(scrubber)) {}

  std::string_view name() const override { return "scrub"; }
  void OnResult(const CallState& call, Result& result) override;

 private:
  std::shared_ptr<const Scrubber> scrubber_;
};

}  // namespace clawtools
