#include "mcp/sse_transport.h"

#include "mcp/http_client.h"
#include "mcp/sse_parser.h"
#include "mcp/url.h"

namespace clawtools::mcp {

SseTransport::SseTransport(HttpTransportOptions options) : options_(std::move(options)) {}

SseTransport::~SseTransport() {
  Close();
}

Status SseTransport::Start(MessageHandler on_message, CloseHandler on_close) {
  on_message_ = std::move(on_message);
  on_close_ = std::move(on_close);
  thread_ = std::thread([this] { Run(); });
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, options_.connect_timeout, [&] { return !endpoint_.empty() || stream_done_; });
  if (!endpoint_.empty()) return {};
  std::string why = stream_done_ ? stream_error_ : "no endpoint event within the connect timeout";
  lock.unlock();
  Close();
  return Fail(ErrorCode::kUnavailable,
              "cannot connect to MCP SSE server " + options_.url + ": " + why);
}

void SseTransport::Run() {
  SseParser parser([this](const SseEvent& ev) {
    if (ev.event == "endpoint") {
      std::lock_guard lock(mu_);
      endpoint_ = ResolveUrl(options_.url, ev.data);
      cv_.notify_all();
      return;
    }
    if (ev.event != "message") return;
    Json v = Json::parse(ev.data, nullptr, false);
    if (v.is_discarded()) {
      if (options_.log) {
        options_.log->Event(LogLevel::kWarn, "mcp: non-JSON SSE event skipped",
                            {{"peer", options_.url}, {"data", ev.data.substr(0, 256)}});
      }
      return;
    }
    if (v.is_array()) {
      for (auto& m : v) on_message_(std::move(m));
    } else {
      on_message_(std::move(v));
    }
  });
  HttpRequest req;
  req.url = options_.url;
  req.connect_timeout = options_.connect_timeout;
  req.headers.assign(options_.headers.begin(), options_.headers.end());
  req.headers.emplace_back("Accept", "text/event-stream");
  long status = 0;
  HttpHandlers h;
  h.on_head = [&](const HttpResponseHead& head) {
    status = head.status;
    return head.status / 100 == 2;
  };
  h.on_data = [&](std::string_view chunk) {
    parser.Feed(chunk);
    return true;
  };
  auto r = http_.Perform(req, h, {.stop = &stop_});
  std::string error = !r                  ? r.error().for_model
                      : status / 100 != 2 ? "HTTP status " + std::to_string(status)
                                          : "the event stream ended";
  bool had_endpoint;
  {
    std::lock_guard lock(mu_);
    stream_done_ = true;
    stream_error_ = error;
    had_endpoint = !endpoint_.empty();
    cv_.notify_all();
  }
  if (!stop_ && had_endpoint && on_close_) {
    on_close_(
        MakeError(ErrorCode::kUnavailable, "MCP SSE stream lost (" + options_.url + "): " + error));
  }
}

Status SseTransport::Send(const Json& message) {
  std::string endpoint;
  {
    std::lock_guard lock(mu_);
    endpoint = endpoint_;
    if (stream_done_)
      return Fail(ErrorCode::kUnavailable, "MCP SSE stream is closed: " + stream_error_);
  }
  HttpRequest req;
  req.method = "POST";
  req.url = endpoint;
  req.body = message.dump(-1, ' ', false, Json::error_handler_t::replace);
  req.connect_timeout = options_.connect_timeout;
  req.timeout = std::chrono::milliseconds(30000);
  req.headers.assign(options_.headers.begin(), options_.headers.end());
  req.headers.emplace_back("Content-Type", "application/json");
  std::string body;
  HttpHandlers h;
  h.on_data = [&](std::string_view chunk) {
    if (body.size() < 1024) body.append(chunk);
    return true;
  };
  auto status = http_.Perform(req, h, {.stop = &stop_});
  if (!status) return std::unexpected(status.error());
  if (*status / 100 != 2) {
    return Fail(ErrorCode::kUnavailable, "MCP SSE server rejected a message: HTTP " +
                                             std::to_string(*status) + " " + body.substr(0, 200));
  }
  return {};
}

void SseTransport::Close() {
  stop_ = true;
  http_.Interrupt();
  if (thread_.joinable()) thread_.join();
}

}  // namespace clawtools::mcp
