// Command-line options as the program reads them, so that rules compare meaning, not text:
// `-rf`, `-Rf`, `-r -f`, `--recursive --force`, `--rec --fo` (unique GNU prefixes) and
// `rm / -rf` (GNU permutation) all yield the flags {r, f} and the operand "/".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "execpolicy/expander.h"

namespace clawtools::execpolicy {

struct ArgSpec {
  std::string_view short_with_value;  // short options taking a value, e.g. "o" for -o FILE
  // Long options: name, the short flag it is equivalent to ('\0' if none), takes a value.
  struct Long {
    std::string_view name;
    char short_equiv = 0;
    bool value = false;
  };
  std::vector<Long> longs;
  bool posix_order = false;  // options end at the first operand (wrappers, find, xargs)
};

struct ParsedArgs {
  std::string shorts;  // every short flag seen, in order (long equivalents included)
  std::vector<std::pair<std::string, std::string>> longs;  // canonical long name, value
  std::vector<std::pair<char, std::string>> short_values;  // -o FILE
  std::vector<size_t> operands;                            // indices into argv
  size_t end = 0;  // with posix_order: index of the first operand (argv.size() if none)

  bool Has(char c) const { return shorts.find(c) != std::string::npos; }
  bool HasLong(std::string_view name) const;
  std::optional<std::string> Value(char c, std::string_view long_name = {}) const;
};

ParsedArgs ParseArgs(const std::vector<Field>& argv, size_t start, const ArgSpec& spec);

}  // namespace clawtools::execpolicy
