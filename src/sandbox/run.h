// Runs a spawned Process to completion: feeds stdin, collects the merged output, and enforces
// the deadline and cancellation by killing the whole process group (SIGTERM, grace, SIGKILL).
//
// Output is kept as a head (the first `head_bytes`) and a tail (the last `tail_bytes`), so
// memory stays bounded however much the child writes; `total_bytes` counts everything.
#pragma once

#include <chrono>
#include <cstdint>
#include <stop_token>
#include <string>

#include "sandbox/byte_ring.h"
#include "sandbox/process.h"

namespace clawtools::sandbox {

struct RunLimits {
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  std::stop_token stop;
  std::string stdin_data;  // written, then stdin is closed
  size_t head_bytes = 4 << 20;
  size_t tail_bytes = 1 << 20;
  std::chrono::milliseconds kill_grace{500};
};

struct RunOutcome {
  ExitStatus status;
  bool timed_out = false;
  bool cancelled = false;
  std::string head;  // the first bytes of the output
  std::string tail;  // the last bytes after `head`, when output exceeded head_bytes
  uint64_t total_bytes = 0;
  uint64_t dropped_bytes() const { return total_bytes - head.size() - tail.size(); }
  std::chrono::milliseconds duration{0};
};

RunOutcome RunToCompletion(Process& proc, const RunLimits& limits);

}  // namespace clawtools::sandbox
