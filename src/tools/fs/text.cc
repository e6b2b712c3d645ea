#include "tools/fs/text.h"

#include <cstring>

namespace clawtools {
namespace {

constexpr size_t kSniffBytes = 8192;

// Length of the valid UTF-8 sequence at s[i], 0 when invalid, -1 when cut off by the end.
int Utf8SeqLen(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  int len;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF)
    len = 2;
  else if (c >= 0xE0 && c <= 0xEF)
    len = 3;
  else if (c >= 0xF0 && c <= 0xF4)
    len = 4;
  else
    return 0;
  for (int k = 1; k < len; ++k) {
    if (i + static_cast<size_t>(k) >= s.size()) return -1;
    unsigned char cc = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
    if ((cc & 0xC0) != 0x80) return 0;
  }
  return len;
}

}  // namespace

bool LooksBinary(std::string_view data) {
  std::string_view head = data.substr(0, kSniffBytes);
  if (std::memchr(head.data(), 0, head.size()) != nullptr) return true;
  size_t bad = 0;
  for (size_t i = 0; i < head.size();) {
    int n = Utf8SeqLen(head, i);
    if (n < 0) break;  // cut at the sniff boundary: not evidence either way
    if (n == 0) {
      ++bad;
      ++i;
    } else {
      i += static_cast<size_t>(n);
    }
  }
  return bad * 10 > head.size();
}

std::string_view Utf8Prefix(std::string_view s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  size_t end = max_bytes;
  // Step back over continuation bytes so the cut lands on a sequence boundary.
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

}  // namespace clawtools
