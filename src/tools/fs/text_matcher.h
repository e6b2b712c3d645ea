// TextMatcher: finds a regex (RE2 syntax) in a whole buffer. `^` and `$` match at line
// boundaries, as in grep. A pattern without regex metacharacters is searched with memmem,
// which beats any regex engine on plain words. Thread-safe after construction.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/error.h"

namespace re2 {
class RE2;
}

namespace clawtools {

class TextMatcher {
 public:
  static Expected<std::shared_ptr<const TextMatcher>> Compile(std::string_view pattern,
                                                              bool case_insensitive);
  ~TextMatcher();

  // True when the pattern occurs anywhere in `text`.
  bool Matches(std::string_view text) const;
  // The first match at or after `pos`: [begin, end) offsets into `text`.
  std::optional<std::pair<size_t, size_t>> Find(std::string_view text, size_t pos) const;

 private:
  TextMatcher() = default;
  std::string literal_;  // set when the pattern is a plain, case-sensitive string
  std::unique_ptr<re2::RE2> re_;
};

}  // namespace clawtools
