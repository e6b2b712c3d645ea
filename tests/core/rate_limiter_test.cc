#include "core/rate_limiter.h"

#include <gtest/gtest.h>

#include <thread>

namespace clawtools {
namespace {

using namespace std::chrono_literals;
using Clock = RateLimiter::Clock;

TEST(RateLimiter, BurstThenRefill) {
  RateLimiter rl(RateLimit{1.0, 3});
  auto t0 = Clock::time_point{} + 1h;
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(rl.AllowAt("k", t0).allowed);
  auto denied = rl.AllowAt("k", t0);
  EXPECT_FALSE(denied.allowed);
  EXPECT_EQ(denied.retry_after, 1000ms);
  EXPECT_FALSE(rl.AllowAt("k", t0 + 500ms).allowed);
  EXPECT_TRUE(rl.AllowAt("k", t0 + 1001ms).allowed);
  EXPECT_TRUE(rl.AllowAt("other", t0).allowed);
}

TEST(RateLimiter, PerHourMatchesGoClawKey) {
  RateLimiter rl(RateLimit::PerHour(150));
  auto t0 = Clock::time_point{} + 1h;
  int allowed = 0;
  for (int i = 0; i < 200; ++i) allowed += rl.AllowAt("s", t0).allowed;
  EXPECT_EQ(allowed, 150);
  EXPECT_TRUE(rl.AllowAt("s", t0 + 25s).allowed);  // 150/h = one per 24 s
}

TEST(RateLimiter, DisabledAllowsEverything) {
  RateLimiter rl(RateLimit{0, 1});
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(rl.Allow("k").allowed);
  EXPECT_EQ(rl.key_count(), 0u);
}

TEST(RateLimiter, MemoryStaysBounded) {
  RateLimiter rl(RateLimit{1.0, 5, 1600});
  auto t = Clock::time_point{} + 1h;
  for (int i = 0; i < 100000; ++i) rl.AllowAt("key" + std::to_string(i), t + std::chrono::microseconds(i));
  EXPECT_LE(rl.key_count(), 1600u);
}

TEST(RateLimiter, IdleKeysEvictedWithoutChangingDecisions) {
  RateLimiter rl(RateLimit{10.0, 2, 160});
  auto t = Clock::time_point{} + 1h;
  EXPECT_TRUE(rl.AllowAt("hot", t).allowed);
  EXPECT_TRUE(rl.AllowAt("hot", t).allowed);
  EXPECT_FALSE(rl.AllowAt("hot", t).allowed);
  // Many idle keys later, "hot" has refilled: a fresh bucket behaves identically.
  for (int i = 0; i < 5000; ++i) rl.AllowAt("idle" + std::to_string(i), t + 10s);
  EXPECT_TRUE(rl.AllowAt("hot", t + 10s).allowed);
  EXPECT_TRUE(rl.AllowAt("hot", t + 10s).allowed);
  EXPECT_FALSE(rl.AllowAt("hot", t + 10s).allowed);
}

TEST(RateLimiter, ExactUnderContention) {
  RateLimiter rl(RateLimit{1e-6, 1000});
  std::atomic<int> allowed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) allowed += rl.Allow("shared").allowed;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(allowed, 1000);
}

}  // namespace
}  // namespace clawtools
