// Background processes started by the process tool, keyed by (session key, id).
//
// Each process has a reader thread that drains its merged output into a ring buffer (the last
// `buffer_bytes`, addressed by absolute byte offsets) and reaps it; a janitor thread kills
// processes that outlive `max_runtime` and forgets exited ones after `retain_exited`. A
// session sees only its own processes and may hold at most `max_per_session` (and all
// sessions together `max_total`), exited ones included until removed. CleanupSession kills
// and forgets a session's processes; the destructor kills everything. Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "tools/runtime/command_launcher.h"

namespace clawtools {

class ProcessRegistry {
 public:
  explicit ProcessRegistry(ProcessLimits limits);
  ~ProcessRegistry();
  ProcessRegistry(const ProcessRegistry&) = delete;
  ProcessRegistry& operator=(const ProcessRegistry&) = delete;

  struct Info {
    std::string id;
    std::string command;
    std::string where;
    bool running = true;
    std::optional<int> exit_code;  // shell convention (128 + signal)
    uint64_t output_bytes = 0;
    std::chrono::seconds age{0};
  };
  struct Output {
    Info info;
    std::string data;
    uint64_t offset = 0;   // absolute offset of data[0]
    uint64_t dropped = 0;  // bytes before `offset` that had scrolled out
  };

  // kResourceExhausted-like limits are kInvalidArgument with the limit named.
  Expected<std::string> Add(const std::string& session, std::string command,
                            LaunchedCommand launched);
  std::vector<Info> List(const std::string& session) const;
  Expected<Output> Poll(const std::string& session, const std::string& id, uint64_t offset,
                        size_t max_bytes) const;
  // Writes what the pipe accepts now (never blocks); returns the bytes written. `eof` closes stdin.
  Expected<size_t> Write(const std::string& session, const std::string& id, std::string_view data,
                         bool eof);
  Status Signal(const std::string& session, const std::string& id, int sig);
  Status Remove(const std::string& session, const std::string& id);
  void CleanupSession(const std::string& session);
  size_t size() const;

 private:
  struct Entry;
  std::shared_ptr<Entry> Find(const std::string& session, const std::string& id) const;
  void Janitor(std::stop_token stop);

  const ProcessLimits limits_;
  mutable std::mutex mu_;
  std::map<std::pair<std::string, std::string>, std::shared_ptr<Entry>> entries_;
  uint64_t next_id_ = 1;
  std::condition_variable_any janitor_cv_;
  std::jthread janitor_;
};

}  // namespace clawtools
