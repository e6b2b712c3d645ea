// Incremental text/event-stream parser (WHATWG server-sent events), fed arbitrary chunks.
// Shared by the SSE and streamable HTTP transports; the server side can reuse it in tests.
//
// An event with no or empty data is not dispatched (servers send such events to prime a resumable
// stream with an id), but its id still becomes last_event_id(). An id becomes last_event_id()
// when its event ends (the blank line), as in the WHATWG algorithm. Comments are ignored.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace clawtools::mcp {

struct SseEvent {
  std::string id;  // the stream's last event id at dispatch time
  std::string event = "message";
  std::string data;  // data lines joined with '\n'
};

class SseParser {
 public:
  using Handler = std::function<void(const SseEvent&)>;
  explicit SseParser(Handler handler) : handler_(std::move(handler)) {}

  void Feed(std::string_view chunk);
  const std::string& last_event_id() const { return last_id_; }
  // The server's `retry:` hint in milliseconds, if any.
  std::optional<int> retry_ms() const { return retry_ms_; }

 private:
  void Line(std::string_view line);

  Handler handler_;
  std::string buf_;
  bool skip_lf_ = false;  // a chunk ended in '\r': a following '\n' belongs to it
  std::string event_, data_;
  std::string id_;       // the last event id buffer: the latest `id:` field
  std::string last_id_;  // id_ as of the last completed event
  bool has_data_ = false;
  std::optional<int> retry_ms_;
};

}  // namespace clawtools::mcp
