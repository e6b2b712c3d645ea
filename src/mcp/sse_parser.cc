#include "mcp/sse_parser.h"

#include <charconv>

namespace clawtools::mcp {

void SseParser::Feed(std::string_view chunk) {
  for (char c : chunk) {
    if (skip_lf_) {
      skip_lf_ = false;
      if (c == '\n') continue;
    }
    if (c == '\r' || c == '\n') {
      skip_lf_ = c == '\r';
      Line(buf_);
      buf_.clear();
    } else {
      buf_.push_back(c);
    }
  }
}

void SseParser::Line(std::string_view line) {
  if (line.empty()) {
    // An id counts once its event is complete: a stream cut inside an event must resume
    // before that event, or the server would skip it.
    last_id_ = id_;
    if (has_data_ && !data_.empty()) {
      SseEvent ev;
      ev.id = last_id_;
      if (!event_.empty()) ev.event = event_;
      ev.data = std::move(data_);
      handler_(ev);
    }
    event_.clear();
    data_.clear();
    has_data_ = false;
    return;
  }
  if (line.front() == ':') return;
  size_t colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value =
      colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field == "data") {
    if (has_data_) data_.push_back('\n');
    data_.append(value);
    has_data_ = true;
  } else if (field == "event") {
    event_ = value;
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) id_ = value;
  } else if (field == "retry") {
    int ms = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
    if (ec == std::errc() && p == value.data() + value.size()) retry_ms_ = ms;
  }
}

}  // namespace clawtools::mcp
