// Process-local publish/subscribe for events that UIs and chat channels follow; the gateway
// streams them as server-sent events (GET /v1/events). Generic on purpose: approvals publish
// today, MCP and other subsystems can publish later without the gateway knowing them.
//
// Publishers never block on subscribers: every subscription has a bounded queue, and when it
// is full the oldest event is dropped and counted, so a stalled client costs bounded memory
// and never slows a tool call. Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/json.h"

namespace clawtools {

struct BusEvent {
  uint64_t seq = 0;  // per bus, increasing from 1 (the SSE "id:")
  std::string type;  // dotted, e.g. "approval.requested"
  Json data;
};

// One subscriber's queue. Dropping the last shared_ptr unsubscribes.
class Subscription {
 public:
  // Everything queued since the last call, oldest first. Never blocks.
  std::vector<BusEvent> Take();
  // Blocks until something is queued or `deadline` passes; true when something is queued.
  // For subscribers that own a thread (the CLI, tests); the gateway uses on_ready instead.
  bool WaitUntil(std::chrono::steady_clock::time_point deadline);
  // Events lost to overflow so far.
  uint64_t dropped() const;

  // Use EventBus::Subscribe.
  Subscription(size_t capacity, std::function<void()> on_ready)
      : capacity_(capacity), on_ready_(std::move(on_ready)) {}

 private:
  friend class EventBus;
  // Queues `event`; true when on_ready should run (the queue was empty).
  bool Push(const BusEvent& event);

  const size_t capacity_;
  const std::function<void()> on_ready_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<BusEvent> queue_;
  uint64_t dropped_ = 0;
};

class EventBus {
 public:
  explicit EventBus(size_t queue_capacity = 1024) : capacity_(queue_capacity) {}

  // `on_ready` runs on the publisher's thread, with no lock held, whenever an event lands in
  // an empty queue; it must be cheap and must not block (post to an executor, notify).
  std::shared_ptr<Subscription> Subscribe(std::function<void()> on_ready = {});
  void Publish(std::string type, Json data);
  size_t subscriber_count() const;

 private:
  const size_t capacity_;
  mutable std::mutex mu_;
  uint64_t seq_ = 0;
  std::vector<std::weak_ptr<Subscription>> subscribers_;
};

}  // namespace clawtools
