// Deterministic synthetic tool output for the credential scrubber's benchmark and tests: logs,
// JSON, source code, env dumps and base64 blobs, full of near-misses (hashes, UUIDs, "max_tokens",
// "Bearer" in prose), optionally with planted secrets.

#ifndef CLAWTOOLS_BENCH_SCRUB_CORPUS_H_
#define CLAWTOOLS_BENCH_SCRUB_CORPUS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clawtools::bench {

struct ScrubCorpus {
  std::string text;
  // Every planted secret's sensitive bytes; none may survive a correct scrub.
  std::vector<std::string> secrets;
};

// About `bytes` bytes (whole lines; never less) of mixed output. With `with_secrets`, roughly one
// line in 25 plants a secret of a random kind. Same arguments, same corpus, on every platform.
ScrubCorpus MakeScrubCorpus(size_t bytes, bool with_secrets, uint64_t seed = 42);

}  // namespace clawtools::bench

#endif  // CLAWTOOLS_BENCH_SCRUB_CORPUS_H_
