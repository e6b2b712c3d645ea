// Streamable HTTP resumability (MCP 2025-03-26 and later, "Resumability and Redelivery"): when
// the SSE stream answering a POST breaks before the JSON-RPC response, the client resumes it
// with GET + Last-Event-ID and the call completes. The server here is a real HTTP/1.1 server
// on a loopback socket, so curl sees the same bytes a production server sends: chunked SSE,
// event ids, and a connection that ends cleanly or just drops in the middle of the body.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "core/json.h"
#include "core/unique_fd.h"
#include "mcp/client.h"
#include "mcp/streamable_http_transport.h"

namespace clawtools::mcp {
namespace {

using namespace std::chrono_literals;

constexpr char kSessionId[] = "session-7f3a";
// The transport's documented bound (streamable_http_transport.h: "3 tries").
constexpr int kDocumentedResumeAttempts = 3;

// How an answer stream breaks. kCleanEnd: the server ends the HTTP response (terminating
// chunk) without having sent the answer. kDrop: the TCP connection closes in the middle of the
// chunked body, which is what a crashed server, a restarted proxy or a lost network path looks
// like to the client.
enum class Break { kCleanEnd, kDrop };

std::string BreakName(Break b) {
  return b == Break::kCleanEnd ? "CleanEnd" : "Drop";
}
void PrintTo(Break b, std::ostream* os) {
  *os << BreakName(b);
}

struct Behaviour {
  Break how = Break::kDrop;
  // Complete events each connection of a call's answer stream (the POST, then every resuming
  // GET, in order) delivers before it breaks. Connections past the end of the list deliver
  // everything left and end normally.
  std::vector<int> events_before_break;
  bool event_ids = true;
  // 2025-11-25: an event with an id and empty data sent first, so the stream is resumable
  // before the server has anything to say.
  bool priming_event = false;
  // The break falls in the middle of the next event: its id line has arrived, its data has not.
  bool cut_inside_next_event = false;
  bool refuse_resume = false;  // GET with Last-Event-ID -> 405
};

struct Seen {
  std::string method;
  std::map<std::string, std::string> headers;  // names lower-cased
  Json body;

  std::string Header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

struct Event {
  std::string id;
  std::string data;

  std::string Wire(bool with_id) const {
    std::string s = "event: message\n";
    if (with_id) s += "id: " + id + "\n";
    return s + "data: " + data + "\n\n";
  }
};

// One tools/call's answer stream as the server's event store keeps it.
struct AnswerStream {
  std::vector<Event> events;
  size_t connections = 0;
};

bool SendAll(int fd, std::string_view s) {
  while (!s.empty()) {
    ssize_t n = ::send(fd, s.data(), s.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    s.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::string Chunk(std::string_view s) {
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", s.size());
  return size + std::string(s) + "\r\n";
}

class ResumableServer {
 public:
  explicit ResumableServer(Behaviour behaviour) : b_(std::move(behaviour)) {
    listen_fd_.reset(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(listen_fd_.get(), reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
        ::listen(listen_fd_.get(), 16) != 0 ||
        ::getsockname(listen_fd_.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      ADD_FAILURE() << "cannot listen on loopback";
      return;
    }
    url_ = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/mcp";
    acceptor_ = std::thread([this] { Accept(); });
  }

  ~ResumableServer() {
    stop_ = true;
    if (acceptor_.joinable()) acceptor_.join();
    std::vector<std::thread> conns;
    {
      std::lock_guard lock(mu_);
      conns.swap(connections_);
    }
    for (auto& t : conns) t.join();
  }

  const std::string& url() const { return url_; }

  std::vector<Seen> Requests() const {
    std::lock_guard lock(mu_);
    return seen_;
  }
  std::vector<Seen> ResumeGets() const {
    std::vector<Seen> out;
    for (auto& s : Requests()) {
      if (s.method == "GET" && !s.Header("last-event-id").empty()) out.push_back(s);
    }
    return out;
  }
  int ToolCallPosts() const {
    int n = 0;
    for (auto& s : Requests()) {
      n += s.method == "POST" && s.body.is_object() && s.body.value("method", "") == "tools/call";
    }
    return n;
  }

 private:
  void Accept() {
    while (!stop_) {
      pollfd p{listen_fd_.get(), POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      UniqueFd fd(::accept4(listen_fd_.get(), nullptr, nullptr, SOCK_CLOEXEC));
      if (!fd) continue;
      // A client that never finishes its request must not keep the destructor waiting.
      timeval tv{2, 0};
      ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      std::lock_guard lock(mu_);
      connections_.emplace_back([this, fd = std::move(fd)]() mutable { Serve(std::move(fd)); });
    }
  }

  static bool ReadRequest(int fd, Seen& req) {
    std::string buf;
    char chunk[4096];
    size_t head_end;
    while ((head_end = buf.find("\r\n\r\n")) == std::string::npos) {
      ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) return false;
      buf.append(chunk, static_cast<size_t>(n));
    }
    std::string head = buf.substr(0, head_end);
    std::string body = buf.substr(head_end + 4);
    req.method = head.substr(0, head.find(' '));
    for (size_t pos = head.find("\r\n"); pos != std::string::npos;) {
      size_t next = head.find("\r\n", pos + 2);
      std::string line = head.substr(pos + 2, next == std::string::npos ? next : next - pos - 2);
      pos = next;
      size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string name = line.substr(0, colon);
      for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      size_t v = line.find_first_not_of(' ', colon + 1);
      req.headers[name] = v == std::string::npos ? "" : line.substr(v);
    }
    if (req.Header("expect") == "100-continue") SendAll(fd, "HTTP/1.1 100 Continue\r\n\r\n");
    size_t length =
        req.headers.contains("content-length") ? std::stoul(req.headers["content-length"]) : 0;
    while (body.size() < length) {
      ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) return false;
      body.append(chunk, static_cast<size_t>(n));
    }
    req.body = Json::parse(body, nullptr, false);
    return true;
  }

  static void Respond(int fd, int status, const std::string& reason, const std::string& body,
                      const std::string& extra_headers = "") {
    SendAll(fd, "HTTP/1.1 " + std::to_string(status) + " " + reason +
                    "\r\nContent-Type: application/json\r\nContent-Length: " +
                    std::to_string(body.size()) + "\r\nConnection: close\r\n" + extra_headers +
                    "\r\n" + body);
  }

  void Serve(UniqueFd fd) {
    Seen req;
    if (!ReadRequest(fd.get(), req)) return;
    {
      std::lock_guard lock(mu_);
      seen_.push_back(req);
    }
    const Json& msg = req.body;
    bool initialize =
        req.method == "POST" && msg.is_object() && msg.value("method", "") == "initialize";
    // As the SDK servers do: every request after initialize must name the session.
    if (!initialize && req.Header("mcp-session-id") != kSessionId) {
      Respond(fd.get(), 400, "Bad Request", R"({"error":"missing or unknown Mcp-Session-Id"})");
      return;
    }
    if (req.method == "DELETE") return Respond(fd.get(), 200, "OK", "");
    if (req.method == "GET") {
      std::string last = req.Header("last-event-id");
      // No standalone server-to-client stream: the client's listener GET gets 405.
      if (last.empty() || b_.refuse_resume) {
        return Respond(fd.get(), 405, "Method Not Allowed", "");
      }
      std::shared_ptr<AnswerStream> stream;
      size_t from = 0;
      {
        std::lock_guard lock(mu_);
        for (auto& s : streams_) {
          for (size_t i = 0; i < s->events.size(); ++i) {
            if (s->events[i].id != last) continue;
            stream = s;
            from = i + 1;
          }
        }
      }
      if (!stream) return Respond(fd.get(), 400, "Bad Request", R"({"error":"unknown event id"})");
      return StreamEvents(fd.get(), *stream, from);
    }
    if (req.method != "POST" || !msg.is_object()) {
      return Respond(fd.get(), 405, "Method Not Allowed", "");
    }
    if (!msg.contains("id") || !msg.contains("method")) {
      return Respond(fd.get(), 202, "Accepted", "");
    }
    std::string method = msg.value("method", "");
    if (initialize) {
      Json result = {{"protocolVersion", msg["params"]["protocolVersion"]},
                     {"capabilities", {{"tools", Json::object()}}},
                     {"serverInfo", {{"name", "resumable"}, {"version", "1"}}}};
      return Respond(fd.get(), 200, "OK",
                     Json{{"jsonrpc", "2.0"}, {"id", msg["id"]}, {"result", result}}.dump(),
                     std::string("Mcp-Session-Id: ") + kSessionId + "\r\n");
    }
    if (method == "tools/call") return StreamEvents(fd.get(), NewAnswerStream(msg), 0);
    Json answer = {{"jsonrpc", "2.0"}, {"id", msg["id"]}};
    if (method == "ping") {
      answer["result"] = Json::object();
    } else {
      answer["error"] = {{"code", -32601}, {"message", "Method not found"}};
    }
    Respond(fd.get(), 200, "OK", answer.dump());
  }

  // Two progress notifications, then the answer; each event gets the next id of the store.
  AnswerStream& NewAnswerStream(const Json& call) {
    Json token = call["params"].value("_meta", Json::object()).value("progressToken", Json());
    auto s = std::make_shared<AnswerStream>();
    std::lock_guard lock(mu_);
    auto add = [&](std::string data) {
      s->events.push_back({"e" + std::to_string(++next_event_), std::move(data)});
    };
    if (b_.priming_event) add("");
    for (int i = 1; i <= 2; ++i) {
      add(Json{{"jsonrpc", "2.0"},
               {"method", "notifications/progress"},
               {"params", {{"progressToken", token}, {"progress", i}, {"total", 2}}}}
              .dump());
    }
    std::string text = "Echo: " + call["params"]["arguments"].value("message", "");
    add(Json{{"jsonrpc", "2.0"},
             {"id", call["id"]},
             {"result", {{"content", {{{"type", "text"}, {"text", text}}}}}}}
            .dump());
    streams_.push_back(s);
    return *s;
  }

  void StreamEvents(int fd, AnswerStream& s, size_t from) {
    int quota;
    {
      std::lock_guard lock(mu_);
      size_t k = s.connections++;
      quota = k < b_.events_before_break.size() ? b_.events_before_break[k] : -1;
    }
    SendAll(fd,
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
            "Transfer-Encoding: chunked\r\n\r\n");
    size_t end = quota < 0 ? s.events.size() : std::min(s.events.size(), from + quota);
    for (size_t i = from; i < end; ++i) SendAll(fd, Chunk(s.events[i].Wire(b_.event_ids)));
    if (end < s.events.size() && b_.cut_inside_next_event) {
      const Event& next = s.events[end];
      std::string wire = next.Wire(b_.event_ids);
      SendAll(fd, Chunk(wire.substr(0, wire.size() - 2 - next.data.size() / 2)));
    }
    bool broken = end < s.events.size();
    if (!broken || b_.how == Break::kCleanEnd) SendAll(fd, "0\r\n\r\n");
    // Returning closes the socket: after the terminating chunk that is a normal end, without it
    // the body is cut short.
  }

  Behaviour b_;
  UniqueFd listen_fd_;
  std::string url_;
  std::atomic<bool> stop_{false};
  std::thread acceptor_;
  mutable std::mutex mu_;
  std::vector<std::thread> connections_;
  std::vector<Seen> seen_;
  std::vector<std::shared_ptr<AnswerStream>> streams_;
  int next_event_ = 0;
};

struct CallRun {
  Expected<Json> result;
  std::vector<double> progress;
  std::chrono::steady_clock::duration took{};
};

class StreamableHttpResume : public ::testing::TestWithParam<Break> {
 protected:
  // Connects a client to a server that behaves as `b`, with the break style of the test.
  void Start(Behaviour b) {
    b.how = GetParam();
    server_ = std::make_unique<ResumableServer>(std::move(b));
    HttpTransportOptions o;
    o.url = server_->url();
    o.connect_timeout = 2s;
    McpClientOptions co;
    co.connect_timeout = 5s;
    auto c = McpClient::Connect(std::make_unique<StreamableHttpTransport>(o), co);
    ASSERT_TRUE(c) << c.error().for_model;
    client_ = std::move(*c);
  }

  CallRun CallEcho() {
    std::mutex mu;
    std::vector<double> progress;
    CallOptions co;
    // Far above what any outcome here needs: a call that reaches it has hung.
    co.deadline = std::chrono::steady_clock::now() + 8s;
    co.on_progress = [&](const Progress& p) {
      std::lock_guard lock(mu);
      progress.push_back(p.progress);
    };
    auto start = std::chrono::steady_clock::now();
    auto r = client_->CallTool("echo", {{"message", "hi"}}, co);
    auto took = std::chrono::steady_clock::now() - start;
    std::lock_guard lock(mu);
    return {std::move(r), progress, took};
  }

  void ExpectResumeGet(const Seen& get, const std::string& last_event_id) {
    EXPECT_EQ(get.Header("last-event-id"), last_event_id);
    EXPECT_EQ(get.Header("mcp-session-id"), kSessionId);
    EXPECT_EQ(get.Header("mcp-protocol-version"), client_->protocol_version());
    EXPECT_NE(get.Header("accept").find("text/event-stream"), std::string::npos);
  }

  void ExpectFailedPromptly(const CallRun& run) {
    ASSERT_FALSE(run.result) << run.result->dump();
    EXPECT_EQ(run.result.error().code, ErrorCode::kUnavailable) << run.result.error().for_model;
    EXPECT_NE(run.result.error().for_model.find(server_->url()), std::string::npos)
        << run.result.error().for_model;
    EXPECT_LT(run.took, 3s);
  }

  // Declared first: destroyed after the client, whose Close() still talks to it.
  std::unique_ptr<ResumableServer> server_;
  std::unique_ptr<McpClient> client_;
};

// Regressions these tests caught: a connection dropped mid-body (CURLE_PARTIAL_FILE) was not
// resumed, only a stream that ended cleanly; and an `id:` field became the last event id when
// its line was read instead of when its event was complete, so a break inside the answer's
// event skipped the answer on resume.
TEST_P(StreamableHttpResume, ResumesWithLastEventIdAndCompletesTheCall) {
  ASSERT_NO_FATAL_FAILURE(Start({.events_before_break = {1}}));
  CallRun run = CallEcho();
  ASSERT_TRUE(run.result) << run.result.error().for_model;
  EXPECT_EQ((*run.result)["content"][0]["text"], "Echo: hi");
  auto gets = server_->ResumeGets();
  ASSERT_EQ(gets.size(), 1u);
  ExpectResumeGet(gets[0], "e1");
  // e1 came on the POST, e2 on the resumed stream: each exactly once, in order.
  EXPECT_EQ(run.progress, (std::vector<double>{1, 2}));
  // Resuming must not re-send the request: the tool ran once.
  EXPECT_EQ(server_->ToolCallPosts(), 1);
}

TEST_P(StreamableHttpResume, ResumesTwiceAcrossTwoBreaks) {
  ASSERT_NO_FATAL_FAILURE(Start({.events_before_break = {1, 1}}));
  CallRun run = CallEcho();
  ASSERT_TRUE(run.result) << run.result.error().for_model;
  EXPECT_EQ((*run.result)["content"][0]["text"], "Echo: hi");
  auto gets = server_->ResumeGets();
  ASSERT_EQ(gets.size(), 2u);
  ExpectResumeGet(gets[0], "e1");
  ExpectResumeGet(gets[1], "e2");
  EXPECT_EQ(run.progress, (std::vector<double>{1, 2}));
  EXPECT_EQ(server_->ToolCallPosts(), 1);
}

TEST_P(StreamableHttpResume, PrimingEventAloneMakesTheStreamResumable) {
  ASSERT_NO_FATAL_FAILURE(Start({.events_before_break = {1}, .priming_event = true}));
  CallRun run = CallEcho();
  ASSERT_TRUE(run.result) << run.result.error().for_model;
  EXPECT_EQ((*run.result)["content"][0]["text"], "Echo: hi");
  auto gets = server_->ResumeGets();
  ASSERT_EQ(gets.size(), 1u);
  ExpectResumeGet(gets[0], "e1");
  EXPECT_EQ(run.progress, (std::vector<double>{1, 2}));
}

// SSE only makes an event's id the stream's last event id when the event is dispatched (the
// blank line that ends it). A stream cut after "id: e3" but before the end of e3's data must
// resume from e2, or the server skips e3 - here the answer itself - and it is never seen.
TEST_P(StreamableHttpResume, BreakInsideAnEventResumesFromTheLastCompleteOne) {
  ASSERT_NO_FATAL_FAILURE(Start({.events_before_break = {2}, .cut_inside_next_event = true}));
  CallRun run = CallEcho();
  auto gets = server_->ResumeGets();
  ASSERT_FALSE(gets.empty());
  ExpectResumeGet(gets[0], "e2");
  ASSERT_TRUE(run.result) << run.result.error().for_model;
  EXPECT_EQ((*run.result)["content"][0]["text"], "Echo: hi");
  EXPECT_EQ(gets.size(), 1u);
  EXPECT_EQ(run.progress, (std::vector<double>{1, 2}));
}

TEST_P(StreamableHttpResume, BreakBeforeAnyEventIdFailsWithoutResuming) {
  ASSERT_NO_FATAL_FAILURE(Start({.events_before_break = {1}, .event_ids = false}));
  CallRun run = CallEcho();
  ASSERT_NO_FATAL_FAILURE(ExpectFailedPromptly(run));
  EXPECT_TRUE(server_->ResumeGets().empty());
  EXPECT_EQ(run.progress, (std::vector<double>{1}));
}

TEST_P(StreamableHttpResume, RefusedResumptionFailsClearly) {
  ASSERT_NO_FATAL_FAILURE(Start({.events_before_break = {1}, .refuse_resume = true}));
  CallRun run = CallEcho();
  ASSERT_NO_FATAL_FAILURE(ExpectFailedPromptly(run));
  EXPECT_NE(run.result.error().for_model.find("405"), std::string::npos)
      << run.result.error().for_model;
  // A refusal is an answer, not a glitch: asking again cannot help.
  auto gets = server_->ResumeGets();
  ASSERT_EQ(gets.size(), 1u);
  ExpectResumeGet(gets[0], "e1");
}

TEST_P(StreamableHttpResume, ResumeAttemptsAreBounded) {
  // Every resumed stream breaks again without delivering anything.
  ASSERT_NO_FATAL_FAILURE(Start({.events_before_break = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}));
  CallRun run = CallEcho();
  ASSERT_NO_FATAL_FAILURE(ExpectFailedPromptly(run));
  auto gets = server_->ResumeGets();
  EXPECT_EQ(gets.size(), static_cast<size_t>(kDocumentedResumeAttempts));
  for (auto& g : gets) ExpectResumeGet(g, "e1");
  EXPECT_EQ(run.progress, (std::vector<double>{1}));
  EXPECT_EQ(server_->ToolCallPosts(), 1);
  // The failure belongs to that call; the session carries on.
  EXPECT_TRUE(client_->Ping(2s));
}

INSTANTIATE_TEST_SUITE_P(Break, StreamableHttpResume,
                         ::testing::Values(Break::kCleanEnd, Break::kDrop),
                         [](const ::testing::TestParamInfo<Break>& info) {
                           return BreakName(info.param);
                         });

}  // namespace
}  // namespace clawtools::mcp
