#include "store/chunking.h"

#include <openssl/sha.h>

namespace clawtools::store {
namespace {

constexpr std::string_view kSpace = " \t\n\r\v\f";

std::string_view Trim(std::string_view s) {
  size_t b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kSpace) - b + 1);
}

}  // namespace

std::vector<TextChunk> ChunkText(std::string_view text, int max_len) {
  const size_t limit = max_len <= 0 ? 1000 : static_cast<size_t>(max_len);
  std::vector<TextChunk> chunks;
  std::string buf;
  int start_line = 1;
  auto flush = [&](int end_line) {
    std::string_view content = Trim(buf);
    if (!content.empty()) chunks.push_back({start_line, end_line, std::string(content)});
    buf.clear();
    start_line = end_line + 1;
  };

  int line_no = 0;
  size_t pos = 0;
  while (true) {
    size_t nl = text.find('\n', pos);
    std::string_view line =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    ++line_no;
    if (Trim(line).empty() && !buf.empty() && buf.size() >= limit / 2) {
      flush(line_no - 1);
    } else {
      if (!buf.empty()) buf += '\n';
      buf.append(line);
      if (buf.size() >= limit) flush(line_no);
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  if (!buf.empty()) flush(line_no);
  return chunks;
}

std::string ContentHash(std::string_view text) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(32);
  for (int i = 0; i < 16; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xf];
  }
  return out;
}

}  // namespace clawtools::store
