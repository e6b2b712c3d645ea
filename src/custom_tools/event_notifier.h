// The `cache:custom_tools` event: "the custom tool definitions changed, reload them".
//
// Publish() delivers to this process's subscribers at once (the writer's own gateway sees its
// change before the HTTP response). Other processes learn of a change from the database, since
// CustomToolStore signals every committed change there: PgListenNotifier (PostgreSQL LISTEN on
// a dedicated connection) or VersionPollNotifier (SQLite: polls the change counter). Callbacks
// run on the notifier's thread (or the publisher's); subscribe before events can arrive, and
// destroy the notifier before anything its callbacks touch.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"

namespace clawtools::custom_tools {

class CustomToolStore;

class EventNotifier {
 public:
  using Callback = std::function<void()>;
  virtual ~EventNotifier() = default;

  void Subscribe(Callback cb);
  // Runs every subscriber now, on the calling thread.
  void Publish();

 private:
  std::mutex mu_;
  std::vector<Callback> subscribers_;
};

// Single process (tests, ":memory:" databases): Publish() is the only source.
class InProcessNotifier final : public EventNotifier {};

// Keeps a libpq connection LISTENing on kChangeChannel; each notification (several queued ones
// coalesce) publishes. A lost connection is re-established with backoff, and publishes once
// when back, since notifications sent meanwhile are lost.
class PgListenNotifier final : public EventNotifier {
 public:
  explicit PgListenNotifier(std::string conninfo);
  ~PgListenNotifier() override;

  // True once LISTEN is active (changes committed from then on are seen); false on timeout.
  bool WaitUntilListening(std::chrono::milliseconds timeout);

 private:
  void Run(std::stop_token stop);

  std::string conninfo_;
  std::mutex state_mu_;
  std::condition_variable_any state_cv_;
  bool listening_ = false;
  std::jthread thread_;  // last: started after everything it uses
};

// Polls CustomToolStore::Version() every `interval` and publishes when it changed. `store`
// must outlive the notifier.
class VersionPollNotifier final : public EventNotifier {
 public:
  VersionPollNotifier(const CustomToolStore& store, std::chrono::milliseconds interval);
  ~VersionPollNotifier() override;

 private:
  void Run(std::stop_token stop);

  const CustomToolStore& store_;
  std::chrono::milliseconds interval_;
  Expected<int64_t> last_;  // read before the thread starts: no change can slip in between
  std::mutex mu_;
  std::condition_variable_any cv_;
  std::jthread thread_;
};

// The notifier for a database URL: LISTEN/NOTIFY on PostgreSQL, polling every second for a
// SQLite file, in-process for ":memory:".
std::unique_ptr<EventNotifier> MakeNotifier(std::string_view db_url,
                                            const CustomToolStore& store);

}  // namespace clawtools::custom_tools
