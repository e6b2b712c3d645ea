#include "tools/fs/glob_pattern.h"

#include <cctype>

namespace clawtools {
namespace {

constexpr size_t kMaxExpansions = 1024;

char Fold(char c, bool ci) {
  return ci ? static_cast<char>(std::tolower(static_cast<unsigned char>(c))) : c;
}

// Matches a [...] class starting at p[pi] == '['. Sets `next` past the class. Returns false
// with next == npos when the class is unterminated (then '[' is literal).
bool MatchClass(std::string_view p, size_t pi, char c, bool ci, size_t& next) {
  size_t i = pi + 1;
  bool negate = i < p.size() && (p[i] == '!' || p[i] == '^');
  if (negate) ++i;
  bool matched = false;
  bool first = true;
  for (; i < p.size() && (first || p[i] != ']'); first = false) {
    char lo = p[i];
    if (lo == '\\' && i + 1 < p.size()) lo = p[++i];
    ++i;
    char hi = lo;
    if (i + 1 < p.size() && p[i] == '-' && p[i + 1] != ']') {
      hi = p[i + 1];
      if (hi == '\\' && i + 2 < p.size()) hi = p[++i + 1];
      i += 2;
    }
    char fc = Fold(c, ci);
    if ((c >= lo && c <= hi) || (fc >= Fold(lo, ci) && fc <= Fold(hi, ci))) matched = true;
  }
  if (i >= p.size()) {
    next = std::string_view::npos;
    return false;
  }
  next = i + 1;
  return matched != negate;
}

bool Match(std::string_view p, size_t pi, std::string_view s, size_t si, bool ci) {
  while (pi < p.size()) {
    char pc = p[pi];
    if (pc == '*') {
      bool component_start = pi == 0 || p[pi - 1] == '/';
      if (pi + 1 < p.size() && p[pi + 1] == '*' && component_start &&
          (pi + 2 == p.size() || p[pi + 2] == '/')) {
        if (pi + 2 == p.size()) return true;  // trailing "**": everything below
        // "**/": zero or more whole components.
        for (size_t k = si;;) {
          if (Match(p, pi + 3, s, k, ci)) return true;
          size_t slash = s.find('/', k);
          if (slash == std::string_view::npos) return false;
          k = slash + 1;
        }
      }
      while (pi < p.size() && p[pi] == '*') ++pi;
      if (pi == p.size()) return s.find('/', si) == std::string_view::npos;
      for (size_t k = si; k <= s.size(); ++k) {
        if (Match(p, pi, s, k, ci)) return true;
        if (k < s.size() && s[k] == '/') return false;
      }
      return false;
    }
    if (si >= s.size()) return false;
    if (pc == '?') {
      if (s[si] == '/') return false;
    } else if (pc == '[') {
      size_t next;
      if (s[si] != '/' && MatchClass(p, pi, s[si], ci, next)) {
        pi = next;
        ++si;
        continue;
      }
      if (next != std::string_view::npos || s[si] != '[') return false;
    } else {
      if (pc == '\\' && pi + 1 < p.size()) pc = p[++pi];
      if (Fold(pc, ci) != Fold(s[si], ci)) return false;
    }
    ++pi;
    ++si;
  }
  return si == s.size();
}

void Expand(std::string_view p, std::vector<std::string>& out) {
  if (out.size() >= kMaxExpansions) return;
  // Find the first top-level balanced {...} containing a comma.
  for (size_t open = 0; open < p.size(); ++open) {
    if (p[open] == '\\') {
      ++open;
      continue;
    }
    if (p[open] != '{') continue;
    int depth = 0;
    std::vector<size_t> commas;
    size_t close = std::string_view::npos;
    for (size_t i = open; i < p.size(); ++i) {
      if (p[i] == '\\') {
        ++i;
        continue;
      }
      if (p[i] == '{') ++depth;
      if (p[i] == '}' && --depth == 0) {
        close = i;
        break;
      }
      if (p[i] == ',' && depth == 1) commas.push_back(i);
    }
    if (close == std::string_view::npos) break;
    if (commas.empty()) continue;
    std::string_view head = p.substr(0, open), tail = p.substr(close + 1);
    size_t start = open + 1;
    commas.push_back(close);
    for (size_t c : commas) {
      std::string alt(head);
      alt += p.substr(start, c - start);
      alt += tail;
      Expand(alt, out);
      start = c + 1;
    }
    return;
  }
  out.emplace_back(p);
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view path, bool case_insensitive) {
  return Match(pattern, 0, path, 0, case_insensitive);
}

std::vector<std::string> ExpandBraces(std::string_view pattern) {
  std::vector<std::string> out;
  Expand(pattern, out);
  return out;
}

bool HasGlobMeta(std::string_view s) {
  return s.find_first_of("*?[{") != std::string_view::npos;
}

}  // namespace clawtools
