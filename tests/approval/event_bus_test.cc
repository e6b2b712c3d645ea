#include "approval/event_bus.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace clawtools {
namespace {

using namespace std::chrono_literals;

TEST(EventBus, DeliversInOrderToEverySubscriber) {
  EventBus bus;
  auto a = bus.Subscribe();
  auto b = bus.Subscribe();
  bus.Publish("x.one", Json{{"n", 1}});
  bus.Publish("x.two", Json{{"n", 2}});
  for (const auto& sub : {a, b}) {
    auto events = sub->Take();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].type, "x.one");
    EXPECT_EQ(events[1].data["n"], 2);
    EXPECT_LT(events[0].seq, events[1].seq);
    EXPECT_TRUE(sub->Take().empty());
  }
}

TEST(EventBus, DroppingTheSubscriptionUnsubscribes) {
  EventBus bus;
  auto a = bus.Subscribe();
  EXPECT_EQ(bus.subscriber_count(), 1u);
  a.reset();
  EXPECT_EQ(bus.subscriber_count(), 0u);
  bus.Publish("x", Json::object());  // nobody to deliver to: no crash
}

TEST(EventBus, BoundedQueueDropsOldestAndCounts) {
  EventBus bus(3);
  auto sub = bus.Subscribe();
  for (int i = 0; i < 5; ++i) bus.Publish("x", Json{{"n", i}});
  auto events = sub->Take();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events.front().data["n"], 2);
  EXPECT_EQ(events.back().data["n"], 4);
  EXPECT_EQ(sub->dropped(), 2u);
}

TEST(EventBus, OnReadyFiresWhenAnEmptyQueueGetsAnEvent) {
  EventBus bus;
  std::atomic<int> calls{0};
  auto sub = bus.Subscribe([&] { ++calls; });
  bus.Publish("x", Json::object());
  bus.Publish("x", Json::object());  // queue not empty: no second wake-up needed
  EXPECT_EQ(calls.load(), 1);
  sub->Take();
  bus.Publish("x", Json::object());
  EXPECT_EQ(calls.load(), 2);
}

TEST(EventBus, WaitUntilWakesOnPublishFromAnotherThread) {
  EventBus bus;
  auto sub = bus.Subscribe();
  EXPECT_FALSE(sub->WaitUntil(std::chrono::steady_clock::now() + 20ms));
  std::thread publisher([&] {
    std::this_thread::sleep_for(20ms);
    bus.Publish("x", Json::object());
  });
  EXPECT_TRUE(sub->WaitUntil(std::chrono::steady_clock::now() + 5s));
  publisher.join();
}

TEST(EventBus, ConcurrentPublishersAndSubscribers) {
  EventBus bus(100000);
  auto keeper = bus.Subscribe();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&bus] {
      for (int i = 0; i < 500; ++i) {
        bus.Publish("x", Json{{"i", i}});
        auto transient = bus.Subscribe();
        transient->Take();
      }
    });
  }
  for (auto& t : threads) t.join();
  auto events = keeper->Take();
  ASSERT_EQ(events.size(), 2000u);
  for (size_t i = 1; i < events.size(); ++i) EXPECT_LT(events[i - 1].seq, events[i].seq);
}

}  // namespace
}  // namespace clawtools
