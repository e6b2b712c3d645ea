// Glob patterns as the glob tool, search's `glob` filter and .gitignore use them.
//   *      any run of characters except '/'
//   ?      one character except '/'
//   [...]  a class: ranges a-z, negation [!...] or [^...], '\' escapes
//   **     as a whole path component: zero or more components ("a/**/b", "**/x", "a/**")
//   \c     the character c literally
// Braces are not part of matching: expand them first with ExpandBraces.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clawtools {

bool GlobMatch(std::string_view pattern, std::string_view path, bool case_insensitive = false);

// "{a,b}.{cc,h}" -> "a.cc", "a.h", "b.cc", "b.h". Nested braces work; an unbalanced brace is
// kept literally. Capped at 1024 results, so a pattern cannot explode memory.
std::vector<std::string> ExpandBraces(std::string_view pattern);

// True when `s` contains any glob metacharacter (* ? [ {).
bool HasGlobMeta(std::string_view s);

}  // namespace clawtools
