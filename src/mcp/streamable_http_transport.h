// The streamable HTTP transport (protocol 2025-03-26 and later): every message is a POST to
// one endpoint, answered by 202 (notifications, responses), a JSON body, or an SSE stream
// that carries the answer (and maybe requests and notifications before it).
//
// Session: the `Mcp-Session-Id` the server returns with the initialize answer is sent on every
// later request; `MCP-Protocol-Version` once SetProtocolVersion() was told the negotiated
// version; DELETE ends the session on Close(). After initialize a GET stream is opened for
// server-initiated messages (list_changed); a server answering 405 has none.
//
// Resumability: when an answer stream ends or breaks (the connection drops mid-body) before
// the answer arrived and the server gave event ids, the stream is resumed with GET +
// `Last-Event-ID` (3 tries; an HTTP error status ends them). A request that still gets no
// answer is answered locally with a transport error, so the caller fails at once.
//
// Connections are kept between requests (HttpClient). SendRequest() runs the POST on the
// calling thread, bounded by the caller's deadline and stop token, so the answer needs no
// thread hand-off; a request given to Send() gets a thread of its own instead (the caller must
// stay able to time out and cancel while the answer streams), joined on a later Send.
#pragma once

#include <atomic>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/call_log.h"
#include "mcp/http_client.h"
#include "mcp/sse_transport.h"
#include "mcp/transport.h"

namespace clawtools::mcp {

class StreamableHttpTransport final : public Transport {
 public:
  explicit StreamableHttpTransport(HttpTransportOptions options);
  ~StreamableHttpTransport() override;

  Status Start(MessageHandler on_message, CloseHandler on_close) override;
  Status Send(const Json& message) override;
  Status SendRequest(const Json& request, const AnswerWait& wait) override;
  void Close() override;
  void SetProtocolVersion(const std::string& version) override;
  std::string Describe() const override { return options_.url; }

  std::string session_id() const;

 private:
  struct Worker {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };

  // How one exchange of an answer stream ended.
  enum class StreamEnd {
    kEnded,   // completely (or we stopped reading after the answer)
    kBroken,  // the connection failed: a resumption may still get the answer
    kFailed,  // an answer that resuming cannot change (HTTP error, not JSON), or cancelled
  };

  // POSTs `body`; delivers what comes back. Returns an error text when `expect_id` (the
  // request's id, or null) got no answer.
  std::string Post(const std::string& body, const Json& expect_id, const HttpCancel& cancel);
  // Reads an SSE stream (POST answer or GET) and delivers its messages; tracks `answered`.
  StreamEnd ConsumeSse(const std::string& method, const std::string& body,
                       const std::string& last_event_id, const Json& expect_id,
                       const HttpCancel& cancel, bool& answered, std::string& last_id,
                       std::string& error);
  // Answers request `id` locally with `error` as a transport error (not when empty or closing).
  void FailRequest(const Json& id, const std::string& error);
  std::vector<std::pair<std::string, std::string>> Headers(bool json_body) const;
  void Deliver(Json v, const Json& expect_id, bool& answered);
  void Listen();
  void Log(LogLevel level, std::string_view msg, Json fields = Json::object()) const;

  HttpTransportOptions options_;
  HttpClient http_;
  MessageHandler on_message_;
  CloseHandler on_close_;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::string session_id_;
  std::string protocol_version_;
  std::list<Worker> workers_;
  std::thread listener_;
};

}  // namespace clawtools::mcp
