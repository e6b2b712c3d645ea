// Internal to clawtools_scrub: exact secret values registered at runtime.

#ifndef CLAWTOOLS_SCRUB_SECRET_SET_H_
#define CLAWTOOLS_SCRUB_SECRET_SET_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "scrub/hyperscan.h"
#include "scrub/span.h"

namespace clawtools::scrub {

// An immutable set of secret values plus their encoded forms (base64 standard and URL-safe, each
// with and without padding; percent-encoding with upper- and lower-case hex), compiled into one
// Hyperscan literal database. Scrubber replaces whole sets (copy-on-write), so a set never
// changes while a scan reads it.
class SecretSet {
 public:
  // Returns nullptr if Hyperscan cannot compile the literals. `values` must be distinct and
  // non-empty.
  static std::shared_ptr<const SecretSet> Build(std::vector<std::string> values);

  const std::vector<std::string>& values() const { return values_; }

  // Appends a span for every occurrence of any form of any value. Thread-safe.
  void Find(std::string_view text, std::vector<Span>* out) const;

 private:
  struct Scan;
  static int OnHit(unsigned id, unsigned long long from, unsigned long long to, unsigned flags,
                   void* scan);

  std::vector<std::string> values_;
  std::vector<size_t> lengths_;  // of each literal, indexed by Hyperscan id
  HsDatabase db_;
};

}  // namespace clawtools::scrub

#endif  // CLAWTOOLS_SCRUB_SECRET_SET_H_
