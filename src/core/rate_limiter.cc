#include "core/rate_limiter.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace clawtools {

RateLimiter::RateLimiter(RateLimit limit)
    : limit_(limit), max_per_shard_(std::max<size_t>(1, limit.max_keys / kShards)) {
  if (limit_.burst < 1) limit_.burst = 1;
}

RateDecision RateLimiter::AllowAt(std::string_view key, Clock::time_point now) {
  if (limit_.per_second <= 0) return {};
  const int64_t now_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
  Shard& shard = shards_[std::hash<std::string_view>{}(key) % kShards];
  std::lock_guard lock(shard.mu);
  auto it = shard.buckets.find(key);
  if (it == shard.buckets.end()) {
    if (shard.buckets.size() >= max_per_shard_) Evict(shard, now_ns);
    it = shard.buckets.emplace(std::string(key), Bucket{limit_.burst, now_ns}).first;
  }
  Bucket& b = it->second;
  if (now_ns > b.last_ns) {
    b.tokens = std::min(limit_.burst, b.tokens + (now_ns - b.last_ns) * 1e-9 * limit_.per_second);
    b.last_ns = now_ns;
  }
  if (b.tokens >= 1.0) {
    b.tokens -= 1.0;
    return {};
  }
  double wait_s = (1.0 - b.tokens) / limit_.per_second;
  return {false, std::chrono::milliseconds(static_cast<int64_t>(std::ceil(wait_s * 1000)))};
}

void RateLimiter::Evict(Shard& shard, int64_t now_ns) {
  // A bucket that would be full by now carries no state: dropping it changes nothing.
  const double full_after_ns = limit_.burst / limit_.per_second * 1e9;
  std::erase_if(shard.buckets, [&](const auto& kv) {
    return kv.second.tokens + (now_ns - kv.second.last_ns) * 1e-9 * limit_.per_second >=
               limit_.burst ||
           (now_ns - kv.second.last_ns) >= full_after_ns;
  });
  if (shard.buckets.size() < max_per_shard_) return;
  // Every key is active: drop the least recently used quarter (rare; O(n) is fine here).
  std::vector<int64_t> times;
  times.reserve(shard.buckets.size());
  for (const auto& kv : shard.buckets) times.push_back(kv.second.last_ns);
  auto nth = times.begin() + times.size() / 4;
  std::nth_element(times.begin(), nth, times.end());
  const int64_t cutoff = *nth;
  std::erase_if(shard.buckets, [&](const auto& kv) { return kv.second.last_ns <= cutoff; });
}

size_t RateLimiter::key_count() const {
  size_t n = 0;
  for (const auto& s : shards_) {
    std::lock_guard lock(s.mu);
    n += s.buckets.size();
  }
  return n;
}

}  // namespace clawtools
