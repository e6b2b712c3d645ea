// Token-bucket rate limiter keyed by string (session, agent, user, tool, ...).
//
// O(1) per Allow(): each key holds a bucket (tokens, last refill); a call takes one token.
// Memory is bounded: keys live in 16 mutex-guarded shards, and a shard over its share of
// max_keys drops buckets that have refilled completely (exactly equivalent to a fresh key),
// then, if still over, the least recently used ones. Thread-safe.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace clawtools {

struct RateLimit {
  double per_second = 0;  // refill rate; <= 0 disables the limiter
  double burst = 1;       // bucket capacity (also the initial allowance)
  size_t max_keys = 100000;

  // GoClaw's tools.rate_limit_per_hour: n calls per hour, burst n.
  static RateLimit PerHour(double n) { return RateLimit{n / 3600.0, n}; }
};

struct RateDecision {
  bool allowed = true;
  std::chrono::milliseconds retry_after{0};  // when denied: time until one token is back
};

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RateLimiter(RateLimit limit);

  RateDecision Allow(std::string_view key) { return AllowAt(key, Clock::now()); }
  // For tests and benchmarks: a caller-supplied clock.
  RateDecision AllowAt(std::string_view key, Clock::time_point now);

  size_t key_count() const;
  const RateLimit& limit() const { return limit_; }

 private:
  struct Bucket {
    double tokens;
    int64_t last_ns;  // last refill, steady-clock nanoseconds
  };
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct Shard {
    mutable std::mutex mu;
    std::unordered_map<std::string, Bucket, StringHash, std::equal_to<>> buckets;
  };
  static constexpr size_t kShards = 16;

  void Evict(Shard& shard, int64_t now_ns);

  RateLimit limit_;
  size_t max_per_shard_;
  std::array<Shard, kShards> shards_;
};

}  // namespace clawtools
