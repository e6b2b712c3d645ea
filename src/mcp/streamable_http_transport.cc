#include "mcp/streamable_http_transport.h"

#include "mcp/http_client.h"
#include "mcp/jsonrpc.h"
#include "mcp/sse_parser.h"

namespace clawtools::mcp {
namespace {

constexpr int kResumeAttempts = 3;
constexpr int kListenFailuresBeforeGivingUp = 5;

}  // namespace

StreamableHttpTransport::StreamableHttpTransport(HttpTransportOptions options)
    : options_(std::move(options)) {}

StreamableHttpTransport::~StreamableHttpTransport() {
  Close();
}

void StreamableHttpTransport::Log(LogLevel level, std::string_view msg, Json fields) const {
  if (!options_.log) return;
  fields["peer"] = options_.url;
  options_.log->Event(level, msg, std::move(fields));
}

Status StreamableHttpTransport::Start(MessageHandler on_message, CloseHandler on_close) {
  on_message_ = std::move(on_message);
  on_close_ = std::move(on_close);
  return {};
}

std::string StreamableHttpTransport::session_id() const {
  std::lock_guard lock(mu_);
  return session_id_;
}

void StreamableHttpTransport::SetProtocolVersion(const std::string& version) {
  std::lock_guard lock(mu_);
  protocol_version_ = version;
  if (!listener_.joinable() && !stop_) listener_ = std::thread([this] { Listen(); });
}

std::vector<std::pair<std::string, std::string>> StreamableHttpTransport::Headers(
    bool json_body) const {
  std::vector<std::pair<std::string, std::string>> h(options_.headers.begin(),
                                                     options_.headers.end());
  h.emplace_back("Accept", json_body ? "application/json, text/event-stream" : "text/event-stream");
  if (json_body) h.emplace_back("Content-Type", "application/json");
  std::lock_guard lock(mu_);
  if (!session_id_.empty()) h.emplace_back("Mcp-Session-Id", session_id_);
  if (!protocol_version_.empty()) h.emplace_back("MCP-Protocol-Version", protocol_version_);
  return h;
}

void StreamableHttpTransport::Deliver(Json v, const Json& expect_id, bool& answered) {
  auto one = [&](Json m) {
    if (!expect_id.is_null() && m.is_object() && m.contains("id") && m["id"] == expect_id &&
        !m.contains("method")) {
      answered = true;
    }
    on_message_(std::move(m));
  };
  if (v.is_array()) {
    for (auto& m : v) one(std::move(m));
  } else {
    one(std::move(v));
  }
}

StreamableHttpTransport::StreamEnd StreamableHttpTransport::ConsumeSse(
    const std::string& method, const std::string& body, const std::string& last_event_id,
    const Json& expect_id, const HttpCancel& cancel, bool& answered, std::string& last_id,
    std::string& error) {
  SseParser parser([&](const SseEvent& ev) {
    if (ev.event != "message") return;
    Json v = Json::parse(ev.data, nullptr, false);
    if (v.is_discarded()) {
      Log(LogLevel::kWarn, "mcp: non-JSON SSE event skipped", {{"data", ev.data.substr(0, 256)}});
      return;
    }
    Deliver(std::move(v), expect_id, answered);
  });
  HttpRequest req;
  req.method = method;
  req.url = options_.url;
  req.body = body;
  req.connect_timeout = options_.connect_timeout;
  req.headers = Headers(method == "POST");
  if (!last_event_id.empty()) req.headers.emplace_back("Last-Event-ID", last_event_id);
  long status = 0;
  std::string content_type, text;
  HttpHandlers h;
  h.on_head = [&](const HttpResponseHead& head) {
    status = head.status;
    content_type = head.Header("content-type");
    if (std::string sid = head.Header("mcp-session-id"); !sid.empty()) {
      std::lock_guard lock(mu_);
      session_id_ = sid;
    }
    return true;
  };
  h.on_data = [&](std::string_view chunk) {
    if (content_type.starts_with("text/event-stream")) {
      parser.Feed(chunk);
    } else if (text.size() < (64u << 20)) {
      text.append(chunk);
    }
    return true;
  };
  // Servers may keep the stream open after our answer: do not wait for its end.
  h.satisfied = [&] { return answered && !expect_id.is_null(); };
  auto r = http_.Perform(req, h, cancel);
  if (!parser.last_event_id().empty()) last_id = parser.last_event_id();
  if (!r) {
    error = r.error().for_model;
    return r.error().code == ErrorCode::kUnavailable ? StreamEnd::kBroken : StreamEnd::kFailed;
  }
  if (status == 202 || status == 204) return StreamEnd::kEnded;
  if (status / 100 != 2) {
    error = "HTTP " + std::to_string(status) + (text.empty() ? "" : ": " + text.substr(0, 300));
    if (status == 404 && !session_id().empty() && on_close_ && !stop_) {
      on_close_(MakeError(ErrorCode::kUnavailable, "MCP session expired (" + options_.url + ")"));
    }
    return StreamEnd::kFailed;
  }
  if (content_type.starts_with("application/json")) {
    if (text.empty()) return StreamEnd::kEnded;
    Json v = Json::parse(text, nullptr, false);
    if (v.is_discarded()) {
      error = "the answer is not JSON";
      return StreamEnd::kFailed;
    }
    Deliver(std::move(v), expect_id, answered);
  }
  return StreamEnd::kEnded;
}

std::string StreamableHttpTransport::Post(const std::string& body, const Json& expect_id,
                                          const HttpCancel& cancel) {
  bool answered = false;
  std::string last_id, error;
  StreamEnd end = ConsumeSse("POST", body, "", expect_id, cancel, answered, last_id, error);
  if (expect_id.is_null()) return end == StreamEnd::kEnded ? "" : error;
  for (int attempt = 0; !answered && end != StreamEnd::kFailed && !last_id.empty() &&
                        attempt < kResumeAttempts && !stop_;
       ++attempt) {
    Log(LogLevel::kInfo, "mcp: answer stream broke; resuming", {{"last_event_id", last_id}});
    end = ConsumeSse("GET", "", last_id, expect_id, cancel, answered, last_id, error);
  }
  if (answered) return "";
  return end == StreamEnd::kEnded ? "the server closed the stream before answering" : error;
}

void StreamableHttpTransport::FailRequest(const Json& id, const std::string& error) {
  if (error.empty() || stop_) return;
  on_message_(MakeErrorResponse(id, rpc_code::kTransportError,
                                "MCP server " + options_.url + ": " + error));
}

Status StreamableHttpTransport::Send(const Json& message) {
  if (stop_) return Fail(ErrorCode::kUnavailable, "MCP transport closed");
  std::string body = message.dump(-1, ' ', false, Json::error_handler_t::replace);
  bool is_request = message.contains("method") && message.contains("id");
  if (!is_request) {
    std::string err = Post(body, nullptr, {.stop = &stop_});
    if (!err.empty())
      return Fail(ErrorCode::kUnavailable, "MCP server " + options_.url + ": " + err);
    return {};
  }
  Json id = message["id"];
  auto done = std::make_shared<std::atomic<bool>>(false);
  std::lock_guard lock(mu_);
  std::erase_if(workers_, [](Worker& w) {
    if (!w.done->load()) return false;
    w.thread.join();
    return true;
  });
  workers_.push_back({std::thread([this, body = std::move(body), id, done] {
                        FailRequest(id, Post(body, id, {.stop = &stop_}));
                        *done = true;
                      }),
                      done});
  return {};
}

Status StreamableHttpTransport::SendRequest(const Json& request, const AnswerWait& wait) {
  if (stop_) return Fail(ErrorCode::kUnavailable, "MCP transport closed");
  if (!request.contains("method") || !request.contains("id")) return Send(request);
  std::string body = request.dump(-1, ' ', false, Json::error_handler_t::replace);
  const Json& id = request["id"];
  std::string err = Post(body, id, {.stop = &stop_, .token = wait.stop, .deadline = wait.deadline});
  // A caller that stopped or ran out of time fails on its own terms (and sends the
  // cancellation); a transport error would hide that.
  if (!wait.stop.stop_requested() && std::chrono::steady_clock::now() < wait.deadline) {
    FailRequest(id, err);
  }
  return {};
}

void StreamableHttpTransport::Listen() {
  std::string last_id;
  int failures = 0;
  while (!stop_ && failures < kListenFailuresBeforeGivingUp) {
    long status = 0;
    SseParser parser([&](const SseEvent& ev) {
      if (ev.event != "message") return;
      Json v = Json::parse(ev.data, nullptr, false);
      if (v.is_discarded()) return;
      bool unused = false;
      Deliver(std::move(v), nullptr, unused);
    });
    HttpRequest req;
    req.url = options_.url;
    req.connect_timeout = options_.connect_timeout;
    req.headers = Headers(false);
    if (!last_id.empty()) req.headers.emplace_back("Last-Event-ID", last_id);
    bool got_data = false;
    HttpHandlers h;
    h.on_head = [&](const HttpResponseHead& head) {
      status = head.status;
      return head.status / 100 == 2 && head.Header("content-type").starts_with("text/event-stream");
    };
    h.on_data = [&](std::string_view chunk) {
      got_data = true;
      parser.Feed(chunk);
      return true;
    };
    auto r = http_.Perform(req, h, {.stop = &stop_});
    if (!parser.last_event_id().empty()) last_id = parser.last_event_id();
    if (stop_) return;
    if (r && (status == 405 || status == 404 || status == 400)) {
      Log(LogLevel::kDebug, "mcp: server offers no GET stream", {{"status", status}});
      return;
    }
    failures = got_data ? 0 : failures + 1;
    int wait_ms = parser.retry_ms().value_or(1000);
    for (int waited = 0; waited < wait_ms && !stop_; waited += 50) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

void StreamableHttpTransport::Close() {
  if (stop_.exchange(true)) return;
  http_.Interrupt();
  std::list<Worker> workers;
  std::thread listener;
  {
    std::lock_guard lock(mu_);
    workers.swap(workers_);
    listener.swap(listener_);
  }
  for (auto& w : workers) w.thread.join();
  if (listener.joinable()) listener.join();
  std::string sid = session_id();
  if (!sid.empty()) {
    // Tell the server the session is over; best effort, short.
    HttpRequest req;
    req.method = "DELETE";
    req.url = options_.url;
    req.connect_timeout = std::chrono::milliseconds(1000);
    req.timeout = std::chrono::milliseconds(2000);
    req.headers.assign(options_.headers.begin(), options_.headers.end());
    req.headers.emplace_back("Mcp-Session-Id", sid);
    (void)http_.Perform(req, {});
  }
}

}  // namespace clawtools::mcp
