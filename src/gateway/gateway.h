// The HTTP gateway behind `clawtools serve`: an HTTP/1.1 server (Boost.Beast, C++20
// coroutines) exposing the runtime's tools (routes.h lists the routes).
//
// Threads: a few io threads run the connections; handlers marked blocking (tool calls) run on
// a bounded worker pool, so a slow tool never stalls other connections or /healthz.
// Auth: with a token (GatewayOptions::token, else the config's gateway_token(), which already
// honours CLAWTOOLS_TOKEN), every route but /healthz needs "Authorization: Bearer <token>" and
// answers 401 {"error":"unauthorized"} otherwise. Without a token the gateway only listens on
// loopback.
// Event streams (AddEventStream): server-sent events over chunked HTTP/1.1, written from the
// connection's strand as events arrive, so a stream holds no thread; they end when the client
// disconnects or the gateway stops.
// Limits: bodies over max_body_bytes get 413, headers over max_header_bytes 431, a request whose
// header is not complete within header_timeout is dropped (slowloris), and connections beyond
// max_connections get 503. Every request logs one "http" event (method, path, status,
// duration_ms) through runtime.log().
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "approval/event_bus.h"
#include "core/error.h"
#include "gateway/router.h"
#include "runtime/runtime.h"

namespace clawtools {

struct GatewayOptions {
  std::string listen = "127.0.0.1:18790";  // host:port; port 0 picks a free port
  std::string token;                       // empty: runtime.config().gateway_token()
  std::string port_file;  // when set, the bound port is written here (atomically) once listening
  size_t max_body_bytes = 8 << 20;
  int io_threads = 0;      // 0: hardware threads
  int worker_threads = 0;  // 0: max(8, 2 x hardware threads); tool calls beyond it queue
  size_t max_header_bytes = 16 << 10;
  int max_connections = 1024;
  std::chrono::milliseconds header_timeout{std::chrono::seconds(15)};  // also the keep-alive idle
  std::chrono::milliseconds io_timeout{std::chrono::seconds(60)};      // reading a body, writing
  // How long Stop() waits for in-flight requests; then their tools are cancelled and abandoned.
  std::chrono::milliseconds shutdown_grace{std::chrono::seconds(10)};
  // A ":" comment on idle event streams, so clients and proxies see the stream is alive.
  std::chrono::milliseconds sse_heartbeat{std::chrono::seconds(15)};
};

class Gateway {
 public:
  // `runtime` must outlive the gateway.
  Gateway(Runtime& runtime, GatewayOptions options);
  // Stops and waits when still running.
  ~Gateway();

  Gateway(const Gateway&) = delete;
  Gateway& operator=(const Gateway&) = delete;

  // Routes beyond the built-in ones; add them before Start().
  Router& router();
  // Serves `bus` at GET `path` as text/event-stream (gateway/sse.h for the format), behind the
  // token like every route. Add before Start().
  void AddEventStream(std::string path, std::shared_ptr<EventBus> bus);

  // Binds, writes port_file, prints "clawtools gateway listening on http://HOST:PORT" to
  // stderr and starts serving. Fails on a bad or busy address, or a non-loopback address
  // without a token.
  Status Start();
  // The bound port (after Start).
  uint16_t port() const;
  // Blocks until a Stop() has finished draining.
  void Wait();
  // Graceful: stops accepting, closes idle keep-alive connections, lets in-flight requests
  // finish for up to shutdown_grace. Returns at once; thread-safe; idempotent.
  void Stop();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Start + wait for SIGINT/SIGTERM + graceful stop. Returns the process exit code: 0 after a
// clean shutdown, 1 (with the reason on stderr) when the gateway cannot start.
int RunGateway(Runtime& runtime, GatewayOptions options);

}  // namespace clawtools
