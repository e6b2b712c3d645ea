// Splitting memory documents into search chunks, as GoClaw does (goclaw-facts 5.3), so that
// line numbers and chunk boundaries match what agents and tools already expect.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clawtools::store {

struct TextChunk {
  int start_line = 0;  // 1-based, inclusive
  int end_line = 0;
  std::string text;  // whitespace-trimmed, never empty
  bool operator==(const TextChunk&) const = default;
};

// Lines are appended to a buffer. A blank line ends the chunk when the buffer holds at least
// max_len/2 bytes (the blank line itself is skipped); a line that brings the buffer to max_len
// bytes ends the chunk after it. No overlap; a line is never split, so one long line yields
// one oversize chunk. max_len <= 0 means 1000.
std::vector<TextChunk> ChunkText(std::string_view text, int max_len = 1000);

// Lowercase hex of the first 16 bytes of SHA-256 (32 characters).
std::string ContentHash(std::string_view text);

}  // namespace clawtools::store
