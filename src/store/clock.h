// The one clock behind every updated_at/created_at column: Unix milliseconds, wall time, so
// values written by different gateway instances compare meaningfully.
#pragma once

#include <chrono>
#include <cstdint>

namespace clawtools::store {

inline int64_t UnixMillisNow() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace clawtools::store
