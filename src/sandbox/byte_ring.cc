#include "sandbox/byte_ring.h"

#include <algorithm>

namespace clawtools::sandbox {

void ByteRing::Append(std::string_view data) {
  end_ += data.size();
  if (capacity_ == 0) return;
  if (data.size() >= capacity_) {
    buf_.assign(data.substr(data.size() - capacity_));
    head_ = 0;
    return;
  }
  if (buf_.size() < capacity_) {
    size_t room = capacity_ - buf_.size();
    size_t n = std::min(room, data.size());
    buf_.append(data.substr(0, n));
    data.remove_prefix(n);
    if (data.empty()) return;
  }
  // Full: overwrite the oldest bytes in place.
  while (!data.empty()) {
    size_t n = std::min(data.size(), capacity_ - head_);
    buf_.replace(head_, n, data.substr(0, n));
    head_ = (head_ + n) % capacity_;
    data.remove_prefix(n);
  }
}

ByteRing::Slice ByteRing::Read(uint64_t from, size_t max) const {
  Slice s;
  uint64_t b = begin();
  if (from < b) {
    s.dropped = b - from;
    from = b;
  }
  from = std::min(from, end_);
  s.offset = from;
  size_t n = static_cast<size_t>(std::min<uint64_t>(end_ - from, max));
  size_t start = (head_ + static_cast<size_t>(from - b)) % std::max<size_t>(buf_.size(), 1);
  s.data.reserve(n);
  size_t first = std::min(n, buf_.size() - start);
  s.data.append(buf_, start, first);
  s.data.append(buf_, 0, n - first);
  return s;
}

}  // namespace clawtools::sandbox
