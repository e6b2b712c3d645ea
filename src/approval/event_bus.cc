#include "approval/event_bus.h"

#include <algorithm>

namespace clawtools {

std::vector<BusEvent> Subscription::Take() {
  std::lock_guard lock(mu_);
  std::vector<BusEvent> out(std::make_move_iterator(queue_.begin()),
                            std::make_move_iterator(queue_.end()));
  queue_.clear();
  return out;
}

bool Subscription::WaitUntil(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mu_);
  return cv_.wait_until(lock, deadline, [this] { return !queue_.empty(); });
}

uint64_t Subscription::dropped() const {
  std::lock_guard lock(mu_);
  return dropped_;
}

bool Subscription::Push(const BusEvent& event) {
  bool was_empty;
  {
    std::lock_guard lock(mu_);
    was_empty = queue_.empty();
    if (queue_.size() >= capacity_) {
      queue_.pop_front();
      ++dropped_;
    }
    queue_.push_back(event);
  }
  cv_.notify_all();
  return was_empty && on_ready_;
}

std::shared_ptr<Subscription> EventBus::Subscribe(std::function<void()> on_ready) {
  auto sub = std::make_shared<Subscription>(std::max<size_t>(1, capacity_), std::move(on_ready));
  std::lock_guard lock(mu_);
  subscribers_.push_back(sub);
  return sub;
}

void EventBus::Publish(std::string type, Json data) {
  std::vector<std::shared_ptr<Subscription>> to_wake;
  {
    // Queued under the bus lock so that every subscriber sees events in seq order.
    std::lock_guard lock(mu_);
    BusEvent event{++seq_, std::move(type), std::move(data)};
    std::erase_if(subscribers_, [&](const std::weak_ptr<Subscription>& weak) {
      auto sub = weak.lock();
      if (!sub) return true;
      if (sub->Push(event)) to_wake.push_back(std::move(sub));
      return false;
    });
  }
  for (const auto& sub : to_wake) sub->on_ready_();
}

size_t EventBus::subscriber_count() const {
  std::lock_guard lock(mu_);
  return std::ranges::count_if(subscribers_,
                               [](const std::weak_ptr<Subscription>& w) { return !w.expired(); });
}

}  // namespace clawtools
