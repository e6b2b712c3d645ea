// The only Beast/Asio translation unit of the gateway: keep it that way (compile cost).
#include "gateway/gateway.h"

#include <strings.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <stop_token>
#include <thread>
#include <vector>

#include "gateway/admin_mcp_routes.h"
#include "gateway/approval_routes.h"
#include "gateway/auth.h"
#include "gateway/custom_tool_routes.h"
#include "gateway/listen_address.h"
#include "gateway/mcp_routes.h"
#include "gateway/routes.h"
#include "gateway/sse.h"
#include "version.h"

namespace clawtools {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

constexpr auto kNoThrow = asio::as_tuple(asio::use_awaitable);

struct Connection {
  explicit Connection(tcp::socket socket) : stream(std::move(socket)) {}
  beast::tcp_stream stream;
  // True while waiting for the next request, so shutdown may drop the connection. Only
  // touched on the connection's strand.
  bool idle = false;
  // Set while the connection serves an event stream: ends it (shutdown). Strand only.
  std::function<void()> stop_stream;
  // A pool worker writing a response and shutdown closing an abandoned connection exclude each
  // other: a worker must never write to a closed, possibly reused, descriptor.
  std::mutex socket_mu;
  bool abandoned = false;  // closed by shutdown; guarded by socket_mu
};

// An event stream's wake-up: the bus callback and shutdown post to the strand, set a flag and
// cancel the timer the stream sleeps on. Strand only.
struct StreamState {
  explicit StreamState(const asio::any_io_executor& executor) : wake(executor) {}
  asio::steady_timer wake;
  bool ready = false;  // events queued since the last drain
  bool done = false;   // peer gone or shutdown
};

std::string_view View(beast::string_view s) {
  return {s.data(), s.size()};
}

HttpResponse InvokeHandler(const Route& route, const HttpRequest& request, CallLog& log) {
  try {
    return route.handler(request);
  } catch (const std::exception& e) {
    log.Event(LogLevel::kError, "http handler failed",
              Json{{"route", route.pattern}, {"error", e.what()}});
    return ErrorResponse(500, "internal error");
  }
}

http::response<http::string_body> Message(const HttpResponse& response, bool keep_alive) {
  http::response<http::string_body> message{static_cast<http::status>(response.status), 11};
  message.set(http::field::server, "clawtools/" CLAWTOOLS_VERSION);
  message.set(http::field::content_type, response.content_type);
  for (const auto& [name, value] : response.headers) message.set(name, value);
  message.body() = response.body;
  message.keep_alive(keep_alive);
  message.prepare_payload();
  return message;
}

// A response and how much of it is already on the wire.
struct Answer {
  HttpResponse response;
  std::string wire;  // the serialized response when a worker started writing it
  size_t sent = 0;   // bytes of `wire` written
  bool failed = false;
};

// Writes what the socket takes without blocking. A worker owns the socket meanwhile: the
// connection's coroutine is suspended waiting for it, and only shutdown touches an active one.
void SendWithoutBlocking(int fd, Answer& a) {
  while (a.sent < a.wire.size()) {
    ssize_t n =
        ::send(fd, a.wire.data() + a.sent, a.wire.size() - a.sent, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n > 0) {
      a.sent += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      a.failed = n < 0 && errno != EAGAIN && errno != EWOULDBLOCK;
      return;
    }
  }
}

// Runs a blocking route on the pool, and writes the response from there as far as the socket
// takes it: the client has its answer while the io thread is still being woken to read the
// next request, one thread hop less on every round trip (the MCP and invoke hot paths).
// A call that outlives the shutdown grace (`abandon` requested) is not answered: its
// connection is closed without a response, as when the gateway stops the io threads.
// Parameters by value: the coroutine outlives the caller's locals while it waits on the pool.
asio::awaitable<Answer> RunOnPool(const Route* route, HttpRequest request, CallLog* log,
                                  std::shared_ptr<Connection> conn, bool keep_alive,
                                  std::stop_token abandon) {
  Answer a{InvokeHandler(*route, request, *log)};
  std::ostringstream wire;
  wire << Message(a.response, keep_alive);
  a.wire = std::move(wire).str();
  std::lock_guard lock(conn->socket_mu);
  if (!conn->abandoned && !abandon.stop_requested()) {
    SendWithoutBlocking(conn->stream.socket().native_handle(), a);
  }
  co_return a;
}

// The answer to a failed read, or nullopt when the connection should just close (peer gone,
// timeout, shutdown).
std::optional<HttpResponse> ReplyToReadError(const beast::error_code& ec, size_t max_body) {
  if (ec == http::error::body_limit) {
    return ErrorResponse(413, "request body exceeds " + std::to_string(max_body) + " bytes");
  }
  if (ec == http::error::header_limit) return ErrorResponse(431, "request header too large");
  if (ec == http::error::end_of_stream || ec == http::error::partial_message) return std::nullopt;
  if (ec.category() == http::make_error_code(http::error::bad_method).category()) {
    return ErrorResponse(400, "malformed HTTP request");
  }
  return std::nullopt;
}

Status WritePortFile(const std::string& path, uint16_t port) {
  // Written then renamed, so a reader polling for the file never sees it half-written.
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << port << "\n";
    if (!out.flush()) return Fail(ErrorCode::kUnavailable, "cannot write port file " + path);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return Fail(ErrorCode::kUnavailable, "cannot write port file " + path, ec.message());
  return {};
}

}  // namespace

class Gateway::Impl {
 public:
  Impl(Runtime& runtime, GatewayOptions options) : runtime_(runtime), options_(std::move(options)) {
    AddCoreRoutes(router_, runtime_, shutdown_.get_token());
    AddApprovalRoutes(router_, runtime_.approvals());
    AddCustomToolRoutes(router_, runtime_.custom_tool_store(), runtime_.custom_tools(),
                        runtime_.custom_tool_events());
    AddEventStream("/v1/events", runtime_.events());
    const Json& mcp =
        runtime_.config().root().value(Json::json_pointer("/gateway/mcp"), Json::object());
    AddMcpRoutes(router_, runtime_,
                 {.allowed_origins = mcp.value("allowed_origins", std::vector<std::string>{}),
                  .allowed_hosts = mcp.value("allowed_hosts", std::vector<std::string>{})});
    AddAdminMcpRoutes(router_, runtime_);
  }

  ~Impl() {
    Stop();
    Wait();
  }

  Router& router() { return router_; }
  void AddEventStream(std::string path, std::shared_ptr<EventBus> bus) {
    streams_[std::move(path)] = std::move(bus);
  }
  uint16_t port() const { return port_; }

  Status Start() {
    auto address = ParseListenAddress(options_.listen);
    if (!address) return std::unexpected(address.error());
    token_ = options_.token.empty() ? runtime_.config().gateway_token() : options_.token;
    if (token_.empty() && !IsLoopback(*address)) {
      return Fail(ErrorCode::kPermissionDenied,
                  "refusing to listen on " + address->ToString() +
                      " without a token: set gateway.token or CLAWTOOLS_TOKEN, or listen on "
                      "127.0.0.1");
    }

    beast::error_code ec;
    tcp::endpoint endpoint(asio::ip::make_address(address->host, ec), address->port);
    if (!ec) acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      beast::error_code ignored;
      acceptor_.close(ignored);
      return Fail(ErrorCode::kUnavailable,
                  "cannot listen on " + address->ToString() + ": " + ec.message());
    }
    port_ = acceptor_.local_endpoint().port();
    address->port = port_;
    if (!options_.port_file.empty()) {
      if (auto written = WritePortFile(options_.port_file, port_); !written) {
        beast::error_code ignored;
        acceptor_.close(ignored);
        return written;
      }
    }
    std::fprintf(stderr, "clawtools gateway listening on http://%s\n", address->ToString().c_str());
    runtime_.log().Event(LogLevel::kInfo, "gateway listening",
                         Json{{"address", address->ToString()}, {"auth", !token_.empty()}});

    unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    pool_.emplace(options_.worker_threads > 0 ? options_.worker_threads
                                              : std::max(8u, 2 * hardware));
    asio::co_spawn(accept_strand_, Accept(), asio::detached);
    unsigned io_threads = options_.io_threads > 0 ? options_.io_threads : hardware;
    for (unsigned i = 0; i < io_threads; ++i) io_threads_.emplace_back([this] { ioc_.run(); });
    started_ = true;
    return {};
  }

  void Stop() {
    if (!started_ || stopping_.exchange(true)) return;
    asio::co_spawn(accept_strand_, Drain(), asio::detached);
  }

  void Wait() {
    std::lock_guard lock(wait_mu_);
    for (std::thread& t : io_threads_) {
      if (t.joinable()) t.join();
    }
    // Connections abandoned after the grace period: with the io threads gone nothing else
    // touches them, so close them here instead of leaving clients hanging until destruction.
    {
      std::lock_guard lock(connections_mu_);
      for (const auto& entry : connection_map_) {
        std::lock_guard socket_lock(entry.second->socket_mu);
        entry.second->abandoned = true;
        beast::error_code ignored;
        entry.second->stream.socket().close(ignored);
      }
    }
    if (pool_) pool_->join();
  }

 private:
  asio::awaitable<void> Accept() {
    asio::steady_timer backoff(accept_strand_);
    while (acceptor_.is_open()) {
      asio::any_io_executor executor = asio::make_strand(ioc_);
      auto [ec, socket] = co_await acceptor_.async_accept(executor, kNoThrow);
      if (ec) {
        if (ec == asio::error::operation_aborted || !acceptor_.is_open()) break;
        // Out of descriptors and the like: back off instead of spinning.
        runtime_.log().Event(LogLevel::kWarn, "gateway accept failed",
                             Json{{"error", ec.message()}});
        backoff.expires_after(std::chrono::milliseconds(100));
        co_await backoff.async_wait(kNoThrow);
        continue;
      }
      if (connections_.load() >= options_.max_connections) {
        asio::co_spawn(executor, Reject(std::move(socket)), asio::detached);
        continue;
      }
      auto connection = std::make_shared<Connection>(std::move(socket));
      uint64_t id = Register(connection);
      asio::co_spawn(executor, Serve(connection, id), asio::detached);
    }
  }

  asio::awaitable<void> Serve(std::shared_ptr<Connection> conn, uint64_t id) {
    beast::flat_buffer buffer;
    while (!stopping_) {
      http::request_parser<http::string_body> parser;
      parser.header_limit(static_cast<uint32_t>(options_.max_header_bytes));
      parser.body_limit(options_.max_body_bytes);

      conn->idle = true;
      conn->stream.expires_after(options_.header_timeout);
      auto [ec, bytes] = co_await http::async_read_header(conn->stream, buffer, parser, kNoThrow);
      conn->idle = false;
      auto start = Clock::now();
      if (!ec && !parser.is_done()) {
        conn->stream.expires_after(options_.io_timeout);
        std::string_view expect = View(parser.get()[http::field::expect]);
        if (expect.size() == 12 && strncasecmp(expect.data(), "100-continue", 12) == 0) {
          http::response<http::empty_body> proceed{http::status::continue_, 11};
          std::tie(ec, bytes) = co_await http::async_write(conn->stream, proceed, kNoThrow);
        }
        if (!ec) {
          std::tie(ec, bytes) = co_await http::async_read(conn->stream, buffer, parser, kNoThrow);
        }
      }

      HttpResponse response;
      bool keep_alive = false;
      bool unread_input = false;
      std::string method =
          parser.is_header_done() ? std::string(View(parser.get().method_string())) : "";
      std::string target = parser.is_header_done() ? std::string(View(parser.get().target())) : "";
      if (ec) {
        auto reply = ReplyToReadError(ec, options_.max_body_bytes);
        if (!reply) break;
        response = std::move(*reply);
        unread_input = true;
      } else if (auto bus = StreamFor(parser.get())) {
        co_await Stream(conn, std::move(bus), method, target, start);
        break;
      } else {
        keep_alive = parser.get().keep_alive() && !stopping_;
        Answer answer = co_await Handle(parser.get(), conn, keep_alive);
        response = std::move(answer.response);
        if (!answer.wire.empty()) {
          bool written = !answer.failed && co_await WriteRest(*conn, answer);
          LogRequest(method, target, response.status, start);
          if (!written || !keep_alive) break;
          continue;
        }
      }
      keep_alive = keep_alive && !stopping_;
      bool written = co_await Write(*conn, response, keep_alive);
      LogRequest(method, target, response.status, start);
      if (written && unread_input) co_await Linger(*conn);
      if (!written || !keep_alive) break;
    }
    beast::error_code ignored;
    conn->stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    Unregister(id);
  }

  // After rejecting a request whose body was not read, closing at once would make the kernel
  // send RST for the unread bytes, and the client could lose our response. Read and drop input
  // for a short while first.
  asio::awaitable<void> Linger(Connection& conn) {
    beast::error_code ignored;
    conn.stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    conn.stream.expires_after(std::chrono::seconds(2));
    std::array<char, 16 << 10> sink;
    for (size_t total = 0; total < (64u << 20);) {
      auto [ec, n] = co_await conn.stream.async_read_some(asio::buffer(sink), kNoThrow);
      if (ec) break;
      total += n;
    }
  }

  // The route's response; blocking routes run on the pool, which may already have written it
  // (Answer::wire), with `keep_alive` in its Connection header.
  asio::awaitable<Answer> Handle(http::request<http::string_body>& message,
                                 std::shared_ptr<Connection> conn, bool keep_alive) {
    HttpRequest request;
    request.method = std::string(View(message.method_string()));
    if (!ParseTarget(View(message.target()), request)) {
      co_return Answer{ErrorResponse(400, "malformed request target")};
    }
    for (const auto& field : message) {
      request.headers.emplace_back(std::string(View(field.name_string())),
                                   std::string(View(field.value())));
    }
    request.body = std::move(message.body());

    RouteMatch match = router_.Match(request.method, request.path);
    bool open = match.route != nullptr && match.route->traits.public_access;
    if (!open && !token_.empty() && !BearerTokenMatches(request.Header("Authorization"), token_)) {
      HttpResponse denied = ErrorResponse(401, "unauthorized");
      denied.headers.emplace_back("WWW-Authenticate", "Bearer");
      co_return Answer{std::move(denied)};
    }
    if (match.route == nullptr) {
      if (match.allowed_methods.empty()) {
        co_return Answer{ErrorResponse(404, "no route for " + request.method + " " + request.path)};
      }
      std::string allow;
      for (const std::string& m : match.allowed_methods) allow += (allow.empty() ? "" : ", ") + m;
      HttpResponse wrong = ErrorResponse(
          405, request.method + " not allowed on " + request.path + " (allowed: " + allow + ")");
      wrong.headers.emplace_back("Allow", allow);
      co_return Answer{std::move(wrong)};
    }
    if (match.bad_escape) co_return Answer{ErrorResponse(400, "malformed %-escape in path")};
    request.params = std::move(match.params);
    if (match.route->traits.blocking) {
      co_return co_await asio::co_spawn(
          *pool_,
          RunOnPool(match.route, std::move(request), &runtime_.log(), std::move(conn), keep_alive,
                    shutdown_.get_token()),
          asio::use_awaitable);
    }
    co_return Answer{InvokeHandler(*match.route, request, runtime_.log())};
  }

  asio::awaitable<bool> Write(Connection& conn, const HttpResponse& response, bool keep_alive) {
    auto message = Message(response, keep_alive);
    conn.stream.expires_after(options_.io_timeout);
    auto [ec, bytes] = co_await http::async_write(conn.stream, message, kNoThrow);
    co_return !ec;
  }

  // What a worker could not write without blocking (a slow reader, a large body).
  asio::awaitable<bool> WriteRest(Connection& conn, const Answer& answer) {
    if (answer.sent == answer.wire.size()) co_return true;
    conn.stream.expires_after(options_.io_timeout);
    auto [ec, bytes] = co_await asio::async_write(
        conn.stream,
        asio::buffer(answer.wire.data() + answer.sent, answer.wire.size() - answer.sent), kNoThrow);
    co_return !ec;
  }

  // The bus served at this request's path, when it is a GET of an event stream with valid
  // credentials; otherwise null and Handle answers (404, 405 or 401 as for any route).
  std::shared_ptr<EventBus> StreamFor(const http::request<http::string_body>& message) {
    if (message.method() != http::verb::get) return nullptr;
    HttpRequest request;
    if (!ParseTarget(View(message.target()), request)) return nullptr;
    auto it = streams_.find(request.path);
    if (it == streams_.end()) return nullptr;
    std::string_view auth = View(message[http::field::authorization]);
    if (!token_.empty() && !BearerTokenMatches(auth, token_)) return nullptr;
    return it->second;
  }

  asio::awaitable<void> Stream(std::shared_ptr<Connection> conn, std::shared_ptr<EventBus> bus,
                               const std::string& method, const std::string& target,
                               Clock::time_point start) {
    asio::any_io_executor strand = co_await asio::this_coro::executor;
    auto state = std::make_shared<StreamState>(strand);
    std::weak_ptr<StreamState> weak = state;
    auto subscription = bus->Subscribe([weak, strand] {
      asio::post(strand, [weak] {
        if (auto s = weak.lock()) {
          s->ready = true;
          s->wake.cancel();
        }
      });
    });
    conn->stop_stream = [state] {
      state->done = true;
      state->wake.cancel();
    };

    http::response<http::empty_body> header{http::status::ok, 11};
    header.set(http::field::server, "clawtools/" CLAWTOOLS_VERSION);
    header.set(http::field::content_type, "text/event-stream");
    header.set(http::field::cache_control, "no-cache");
    header.chunked(true);
    header.keep_alive(false);
    http::response_serializer<http::empty_body> serializer{header};
    conn->stream.expires_after(options_.io_timeout);
    auto [ec, bytes] = co_await http::async_write_header(conn->stream, serializer, kNoThrow);
    LogRequest(method, target, 200, start);

    if (!ec) {
      // The client never sends anything on a stream: a completed read means it went away.
      asio::co_spawn(strand, WatchPeer(conn, state), asio::detached);
      uint64_t dropped_reported = 0;
      auto next_beat = Clock::now();  // an immediate first heartbeat confirms the stream
      while (!state->done && !stopping_) {
        state->ready = false;
        std::string out;
        if (uint64_t dropped = subscription->dropped(); dropped != dropped_reported) {
          out += FormatSseEvent(0, "events.dropped", Json{{"dropped", dropped}}.dump());
          dropped_reported = dropped;
        }
        for (const BusEvent& e : subscription->Take()) {
          out += FormatSseEvent(e.seq, e.type,
                                e.data.dump(-1, ' ', false, Json::error_handler_t::replace));
        }
        if (out.empty() && Clock::now() >= next_beat) out = kSseHeartbeat;
        if (!out.empty()) {
          conn->stream.expires_after(options_.io_timeout);
          std::tie(ec, bytes) = co_await asio::async_write(
              conn->stream, http::make_chunk(asio::buffer(out)), kNoThrow);
          if (ec) break;
          next_beat = Clock::now() + options_.sse_heartbeat;
        }
        if (state->ready || state->done) continue;
        state->wake.expires_at(next_beat);
        co_await state->wake.async_wait(kNoThrow);
      }
      if (!ec) {
        conn->stream.expires_after(options_.io_timeout);
        co_await asio::async_write(conn->stream, http::make_chunk_last(), kNoThrow);
      }
    }
    conn->stop_stream = nullptr;
    beast::error_code ignored;
    conn->stream.socket().cancel(ignored);  // ends WatchPeer
  }

  asio::awaitable<void> WatchPeer(std::shared_ptr<Connection> conn,
                                  std::shared_ptr<StreamState> state) {
    std::array<char, 512> sink;
    while (true) {
      auto [ec, n] = co_await conn->stream.socket().async_read_some(asio::buffer(sink), kNoThrow);
      if (ec) break;
    }
    state->done = true;
    state->wake.cancel();
  }

  asio::awaitable<void> Reject(tcp::socket socket) {
    Connection conn(std::move(socket));
    auto start = Clock::now();
    HttpResponse busy = ErrorResponse(503, "too many connections");
    co_await Write(conn, busy, false);
    LogRequest("", "", busy.status, start);
    beast::error_code ignored;
    conn.stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  asio::awaitable<void> Drain() {
    beast::error_code ignored;
    acceptor_.close(ignored);
    {
      std::lock_guard lock(connections_mu_);
      for (const auto& entry : connection_map_) {
        std::shared_ptr<Connection> conn = entry.second;
        asio::post(conn->stream.get_executor(), [conn] {
          if (conn->idle) conn->stream.cancel();
          if (conn->stop_stream) conn->stop_stream();
        });
      }
    }
    asio::steady_timer timer(accept_strand_);
    auto deadline = Clock::now() + options_.shutdown_grace;
    while (connections_.load() > 0 && Clock::now() < deadline) {
      timer.expires_after(std::chrono::milliseconds(20));
      co_await timer.async_wait(kNoThrow);
    }
    if (int left = connections_.load(); left > 0) {
      runtime_.log().Event(LogLevel::kWarn, "gateway shutdown grace expired",
                           Json{{"connections", left}});
      shutdown_.request_stop();
    }
    work_.reset();
    ioc_.stop();
  }

  uint64_t Register(std::shared_ptr<Connection> conn) {
    std::lock_guard lock(connections_mu_);
    uint64_t id = next_connection_id_++;
    connection_map_.emplace(id, std::move(conn));
    ++connections_;
    return id;
  }

  void Unregister(uint64_t id) {
    std::lock_guard lock(connections_mu_);
    connection_map_.erase(id);
    --connections_;
  }

  void LogRequest(const std::string& method, const std::string& target, int status,
                  Clock::time_point start) {
    // The query string is left out: it may carry values the operator does not want logged.
    std::string_view path = std::string_view(target).substr(0, target.find('?'));
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    runtime_.log().Event(LogLevel::kInfo, "http",
                         Json{{"method", method},
                              {"path", path},
                              {"status", status},
                              {"duration_ms", std::round(ms * 1000) / 1000}});
  }

  Runtime& runtime_;
  GatewayOptions options_;
  Router router_;
  std::map<std::string, std::shared_ptr<EventBus>, std::less<>> streams_;
  std::string token_;
  std::stop_source shutdown_;

  asio::io_context ioc_;
  asio::strand<asio::io_context::executor_type> accept_strand_{ioc_.get_executor()};
  tcp::acceptor acceptor_{accept_strand_};
  asio::executor_work_guard<asio::io_context::executor_type> work_{ioc_.get_executor()};
  std::optional<asio::thread_pool> pool_;
  std::vector<std::thread> io_threads_;
  std::mutex wait_mu_;

  std::atomic<bool> started_{false};
  std::atomic<bool> stopping_{false};
  uint16_t port_ = 0;

  std::mutex connections_mu_;
  std::map<uint64_t, std::shared_ptr<Connection>> connection_map_;
  uint64_t next_connection_id_ = 0;
  std::atomic<int> connections_{0};
};

Gateway::Gateway(Runtime& runtime, GatewayOptions options)
    : impl_(std::make_unique<Impl>(runtime, std::move(options))) {}
Gateway::~Gateway() = default;
Router& Gateway::router() {
  return impl_->router();
}
void Gateway::AddEventStream(std::string path, std::shared_ptr<EventBus> bus) {
  impl_->AddEventStream(std::move(path), std::move(bus));
}
Status Gateway::Start() {
  return impl_->Start();
}
uint16_t Gateway::port() const {
  return impl_->port();
}
void Gateway::Wait() {
  impl_->Wait();
}
void Gateway::Stop() {
  impl_->Stop();
}

int RunGateway(Runtime& runtime, GatewayOptions options) {
  Gateway gateway(runtime, std::move(options));
  // Installed before Start so a signal that arrives while starting already stops gracefully.
  asio::io_context signal_context;
  asio::signal_set signals(signal_context, SIGINT, SIGTERM);
  signals.async_wait([&](const beast::error_code& ec, int signal) {
    if (ec) return;
    runtime.log().Event(LogLevel::kInfo, "gateway stopping",
                        Json{{"signal", signal == SIGINT ? "SIGINT" : "SIGTERM"}});
    gateway.Stop();
  });
  if (auto started = gateway.Start(); !started) {
    std::fprintf(stderr, "clawtools gateway: %s\n", started.error().log_message().c_str());
    return 1;
  }
  std::thread signal_thread([&] { signal_context.run(); });
  gateway.Wait();
  signal_context.stop();
  signal_thread.join();
  return 0;
}

}  // namespace clawtools
