// Name matching shared by the policy lists.
//
// Policy names are matched exactly (case-sensitive), as GoClaw does, except the subagent deny
// lists, which GoClaw compares with EqualFold; both rules live here so they cannot drift.
#pragma once

#include <string>
#include <string_view>

namespace clawtools::policy {

// True when `pattern` contains a '*' and is therefore matched with GlobMatch.
bool IsGlob(std::string_view pattern);

// '*' matches any run of characters (including none); every other character matches itself.
// Case-sensitive. Linear in |pattern| * |name| in the worst case, no allocation.
bool GlobMatch(std::string_view pattern, std::string_view name);

// ASCII lower case: tool names are ASCII identifiers, so locale rules do not apply.
std::string AsciiLower(std::string_view s);

// Levenshtein distance, capped: returns cap + 1 as soon as the distance exceeds `cap`.
// Used for "did you mean" hints in config warnings.
size_t EditDistance(std::string_view a, std::string_view b, size_t cap);

}  // namespace clawtools::policy
