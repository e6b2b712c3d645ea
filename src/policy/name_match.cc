#include "policy/name_match.h"

#include <algorithm>
#include <vector>

namespace clawtools::policy {

bool IsGlob(std::string_view pattern) {
  return pattern.find('*') != std::string_view::npos;
}

bool GlobMatch(std::string_view pattern, std::string_view name) {
  // Fast path for the common shapes "prefix*" and "*suffix" (one star, at an end).
  if (pattern.find('*') == pattern.rfind('*')) {
    if (pattern.ends_with('*')) return name.starts_with(pattern.substr(0, pattern.size() - 1));
    if (pattern.starts_with('*')) return name.ends_with(pattern.substr(1));
  }
  // Greedy matching with backtracking to the last '*': the classic linear-space algorithm.
  size_t p = 0, n = 0;
  size_t star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

size_t EditDistance(std::string_view a, std::string_view b, size_t cap) {
  size_t diff = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (diff > cap) return cap + 1;
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    size_t best = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
      best = std::min(best, row[j]);
    }
    if (best > cap) return cap + 1;
  }
  return std::min(row[b.size()], cap + 1);
}

}  // namespace clawtools::policy
