// The last `capacity` bytes of a stream, addressed by absolute stream offsets.
//
// A reader that asks for an offset that has already scrolled out learns how many bytes it
// missed instead of silently getting later data. Not thread-safe: callers lock.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace clawtools::sandbox {

class ByteRing {
 public:
  explicit ByteRing(size_t capacity) : capacity_(capacity) {}

  void Append(std::string_view data);

  // Total bytes ever appended; the offset the next byte will have.
  uint64_t end() const { return end_; }
  // Offset of the oldest byte still held.
  uint64_t begin() const { return end_ - buf_.size(); }

  struct Slice {
    std::string data;
    uint64_t offset = 0;   // absolute offset of data[0]
    uint64_t dropped = 0;  // bytes between the requested offset and `offset` that scrolled out
  };
  // Up to `max` bytes starting at `from` (clamped into [begin(), end()]).
  Slice Read(uint64_t from, size_t max) const;
  // Everything held, oldest first.
  std::string Contents() const { return Read(begin(), buf_.size()).data; }

 private:
  size_t capacity_;
  std::string buf_;  // circular once full; head_ is the oldest byte
  size_t head_ = 0;
  uint64_t end_ = 0;
};

}  // namespace clawtools::sandbox
