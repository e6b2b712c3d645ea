// Internal to clawtools_scrub: byte ranges to redact and the length bounds that make streaming
// exact.

#ifndef CLAWTOOLS_SCRUB_SPAN_H_
#define CLAWTOOLS_SCRUB_SPAN_H_

#include <cstddef>
#include <vector>

namespace clawtools::scrub {

// Half-open byte range [begin, end) of the scanned text.
struct Span {
  size_t begin;
  size_t end;
};

// Every rule decides a span by looking at no more than kMaxLookBehind bytes before the span's
// start and kMaxLookAhead bytes after it (the span itself included). Spans never exceed kMaxSpan.
// These bounds are what lets Scrubber::Stream emit output identical to Scrub() of the whole
// input while holding only a bounded window.
inline constexpr size_t kMaxPemBody = 16 * 1024;
inline constexpr size_t kMaxTokenLen = 4096;
inline constexpr size_t kMaxSecretValue = 4096;  // AddSecret; its URL encoding is <= 3x
inline constexpr size_t kMaxSpan = 3 * kMaxSecretValue;
inline constexpr size_t kMaxLookAhead = kMaxPemBody + 1024;
inline constexpr size_t kMaxLookBehind = 1024;

// Sorts `spans` and merges those that overlap or touch, so that adjacent secrets become one
// "[REDACTED]" regardless of how they were found.
void MergeSpans(std::vector<Span>* spans);

}  // namespace clawtools::scrub

#endif  // CLAWTOOLS_SCRUB_SPAN_H_
