#include "scrub/span.h"

#include <algorithm>

namespace clawtools::scrub {

void MergeSpans(std::vector<Span>* spans) {
  if (spans->size() < 2) return;
  std::sort(spans->begin(), spans->end(), [](const Span& a, const Span& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  size_t out = 0;
  for (size_t i = 1; i < spans->size(); ++i) {
    Span& last = (*spans)[out];
    const Span& cur = (*spans)[i];
    if (cur.begin <= last.end) {
      last.end = std::max(last.end, cur.end);
    } else {
      (*spans)[++out] = cur;
    }
  }
  spans->resize(out + 1);
}

}  // namespace clawtools::scrub
