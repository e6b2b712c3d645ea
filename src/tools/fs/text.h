// Text helpers shared by the fs tools: binary detection and UTF-8-safe truncation.
#pragma once

#include <cstddef>
#include <string_view>

namespace clawtools {

// True when `data` looks like binary rather than text: a NUL byte in the first 8 KiB, or more
// than 10% of that prefix made of bytes that are not valid UTF-8 (a truncated multi-byte
// sequence at the cut does not count).
bool LooksBinary(std::string_view data);

// The longest prefix of `s` of at most `max_bytes` bytes that does not split a UTF-8 sequence.
std::string_view Utf8Prefix(std::string_view s, size_t max_bytes);

}  // namespace clawtools
