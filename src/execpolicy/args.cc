#include "execpolicy/args.h"

namespace clawtools::execpolicy {

bool ParsedArgs::HasLong(std::string_view name) const {
  for (const auto& [n, v] : longs) {
    if (n == name) return true;
  }
  return false;
}

std::optional<std::string> ParsedArgs::Value(char c, std::string_view long_name) const {
  for (const auto& [k, v] : short_values) {
    if (k == c) return v;
  }
  if (!long_name.empty()) {
    for (const auto& [n, v] : longs) {
      if (n == long_name) return v;
    }
  }
  return std::nullopt;
}

ParsedArgs ParseArgs(const std::vector<Field>& argv, size_t start, const ArgSpec& spec) {
  ParsedArgs out;
  out.end = argv.size();
  bool options_done = false;
  for (size_t i = start; i < argv.size(); ++i) {
    const std::string& a = argv[i].text;
    if (options_done || a.size() < 2 || a[0] != '-') {
      out.operands.push_back(i);
      if (spec.posix_order && !options_done) {
        out.end = i;
        options_done = true;
      }
      continue;
    }
    if (a == "--") {
      options_done = true;
      out.end = i + 1;
      continue;
    }
    if (a[1] == '-') {
      std::string name = a.substr(2), value;
      const size_t eq = name.find('=');
      const bool has_eq = eq != std::string::npos;
      if (has_eq) {
        value = name.substr(eq + 1);
        name.resize(eq);
      }
      // GNU getopt_long accepts any unambiguous prefix of a long option.
      const ArgSpec::Long* match = nullptr;
      int matches = 0;
      for (const auto& l : spec.longs) {
        if (l.name == name) {
          match = &l;
          matches = 1;
          break;
        }
        if (l.name.starts_with(name)) {
          match = &l;
          ++matches;
        }
      }
      if (matches == 1) {
        name = std::string(match->name);
        if (match->value && !has_eq && i + 1 < argv.size()) value = argv[++i].text;
        if (match->short_equiv) {
          out.shorts += match->short_equiv;
          if (match->value) out.short_values.emplace_back(match->short_equiv, value);
        }
      }
      out.longs.emplace_back(std::move(name), std::move(value));
      continue;
    }
    for (size_t k = 1; k < a.size(); ++k) {
      const char c = a[k];
      out.shorts += c;
      if (spec.short_with_value.find(c) != std::string_view::npos) {
        std::string value = a.substr(k + 1);
        if (value.empty() && i + 1 < argv.size()) value = argv[++i].text;
        out.short_values.emplace_back(c, std::move(value));
        break;
      }
    }
  }
  return out;
}

}  // namespace clawtools::execpolicy
