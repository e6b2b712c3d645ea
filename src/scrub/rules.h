// Internal to clawtools_scrub: the built-in credential rules.
//
// Design: one Hyperscan block-mode pass over the text runs a prefilter per rule: a literal prefix
// plus a fixed-width tail for token shapes, plain keyword literals for key/value forms (a literal
// set scans several times faster than the whole shape), short bounded shapes for the rest.
// Hyperscan is a non-backtracking automaton engine with SIMD literal search, so the secret-free
// path costs one linear scan at several hundred MB/s. Each hit is then confirmed on a bounded
// window: RE2 (linear, no backtracking) anchored at the hit for token shapes, or a small
// hand-written parser where the decision is about meaning rather than shape (is "cache_key" a
// credential? is the value a placeholder?) or where RE2 was slow (PEM labels). All windows are
// bounded (see span.h), so the total work is linear in the input and the result at any position
// depends only on nearby bytes, which is what makes streaming exact.

#ifndef CLAWTOOLS_SCRUB_RULES_H_
#define CLAWTOOLS_SCRUB_RULES_H_

#include <memory>
#include <string_view>
#include <vector>

#include "scrub/hyperscan.h"
#include "scrub/span.h"

namespace re2 {
class RE2;
}

namespace clawtools::scrub {

class RuleSet {
 public:
  // Compiles the rules; throws std::runtime_error if Hyperscan rejects them (e.g. a CPU without
  // SSSE3).
  RuleSet();
  ~RuleSet();
  RuleSet(const RuleSet&) = delete;
  RuleSet& operator=(const RuleSet&) = delete;

  // Appends to `out` the span of every rule match in `text` (unsorted, possibly overlapping).
  // Thread-safe. `text` must be shorter than 4 GiB.
  void Find(std::string_view text, std::vector<Span>* out) const;

 private:
  struct Scan;
  static int OnHit(unsigned id, unsigned long long from, unsigned long long to, unsigned flags,
                   void* scan);
  void Confirm(unsigned id, size_t end, Scan* scan) const;
  void ConfirmToken(int rule, size_t start, std::string_view text, std::vector<Span>* out) const;

  HsDatabase db_;
  std::vector<size_t> widths_;  // match width of each fixed-width prefilter, by Hyperscan id
  std::vector<std::unique_ptr<re2::RE2>> token_res_;  // indexed like kTokenRules
};

}  // namespace clawtools::scrub

#endif  // CLAWTOOLS_SCRUB_RULES_H_
