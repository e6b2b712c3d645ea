#include "gateway/mcp_routes.h"

#include <sys/random.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "mcp/jsonrpc.h"
#include "mcp/protocol.h"
#include "mcp_server/runtime_backend.h"

namespace clawtools {
namespace {

using Clock = std::chrono::steady_clock;

std::string Lower(std::string_view s) {
  std::string out(s);
  std::ranges::transform(out, out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// "host:port", "[::1]:port" or "host" -> the host part, lowercased.
std::string HostPart(std::string_view hostport) {
  if (hostport.starts_with('[')) {
    size_t end = hostport.find(']');
    return Lower(hostport.substr(0, end == std::string_view::npos ? hostport.size() : end + 1));
  }
  return Lower(hostport.substr(0, hostport.find(':')));
}

bool IsLoopbackHost(std::string_view host) {
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]";
}

std::string NewSessionId() {
  unsigned char bytes[32];
  size_t got = 0;
  while (got < sizeof bytes) {
    ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("getrandom failed");  // the server answers 500
    }
    got += static_cast<size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (unsigned char b : bytes) {
    id.push_back(kHex[b >> 4]);
    id.push_back(kHex[b & 15]);
  }
  return id;
}

bool Accepts(std::string_view accept, std::string_view type) {
  return accept.empty() || accept.find(type) != std::string_view::npos ||
         accept.find("*/*") != std::string_view::npos;
}

HttpResponse RpcError(int status, int code, std::string_view message) {
  return JsonResponse(status, mcp::MakeErrorResponse(nullptr, code, message));
}

class McpEndpoint {
 public:
  McpEndpoint(const Runtime& runtime, McpRoutesOptions options)
      : runtime_(runtime), options_(std::move(options)) {}

  HttpResponse Post(const HttpRequest& req) {
    if (auto denied = CheckOrigin(req)) return *denied;
    std::string_view accept = req.Header("Accept");
    bool json_ok = Accepts(accept, "application/json");
    bool sse_ok = accept.find("text/event-stream") != std::string_view::npos;
    if (!json_ok && !sse_ok) {
      return RpcError(406, mcp::rpc_code::kInvalidRequest,
                      "Accept must include application/json or text/event-stream");
    }
    Json message = Json::parse(req.body, nullptr, false);
    if (message.is_discarded()) return RpcError(400, mcp::rpc_code::kParseError, "invalid JSON");

    std::shared_ptr<mcp::McpServerSession> session;
    std::string new_id;
    if (message.is_object() && message.value("method", "") == "initialize") {
      new_id = NewSessionId();
      mcp::McpCaller caller;
      caller.agent_id = req.Query("agent").value_or("");
      caller.user_id = req.Query("user").value_or("");
      caller.session_key = "mcp:" + new_id.substr(0, 16);
      session = std::make_shared<mcp::McpServerSession>(
          std::make_shared<mcp::RuntimeToolBackend>(runtime_, std::move(caller), options_.resolver),
          options_.session);
    } else {
      std::string_view id = req.Header("Mcp-Session-Id");
      if (id.empty()) {
        return RpcError(400, mcp::rpc_code::kInvalidRequest,
                        "Mcp-Session-Id header required (send initialize first)");
      }
      session = Find(id);
      if (!session) return RpcError(404, mcp::rpc_code::kInvalidRequest, "session not found");
      std::string_view version = req.Header("MCP-Protocol-Version");
      if (!version.empty() && !mcp::IsSupportedProtocolVersion(version)) {
        return RpcError(400, mcp::rpc_code::kInvalidRequest,
                        "unsupported MCP-Protocol-Version " + std::string(version));
      }
      // Batching was removed in 2025-06-18.
      if (message.is_array() && mcp::HasMcpProtocolVersionHeader(session->protocol_version())) {
        return RpcError(400, mcp::rpc_code::kInvalidRequest,
                        "JSON-RPC batches are not part of protocol " + session->protocol_version());
      }
    }

    Json answer = session->Handle(message);
    if (!new_id.empty() && answer.is_object() && answer.contains("result")) Add(new_id, session);
    if (answer.is_null()) return HttpResponse{.status = 202};
    HttpResponse resp;
    std::string body = answer.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (json_ok) {
      resp.body = std::move(body);
    } else {
      resp.content_type = "text/event-stream";
      resp.body = "event: message\ndata: " + body + "\n\n";
    }
    if (!new_id.empty()) resp.headers.emplace_back("Mcp-Session-Id", new_id);
    return resp;
  }

  HttpResponse Delete(const HttpRequest& req) {
    if (auto denied = CheckOrigin(req)) return *denied;
    std::string_view id = req.Header("Mcp-Session-Id");
    if (id.empty()) return ErrorResponse(400, "Mcp-Session-Id header required");
    std::lock_guard lock(mu_);
    if (sessions_.erase(std::string(id)) == 0) return ErrorResponse(404, "session not found");
    return JsonResponse(200, Json::object());
  }

  HttpResponse Get(const HttpRequest& req) {
    if (auto denied = CheckOrigin(req)) return *denied;
    HttpResponse r = ErrorResponse(405, "no server-initiated stream; POST requests instead");
    r.headers.emplace_back("Allow", "POST, DELETE");
    return r;
  }

 private:
  struct Entry {
    std::shared_ptr<mcp::McpServerSession> session;
    Clock::time_point last_used;
  };

  std::optional<HttpResponse> CheckOrigin(const HttpRequest& req) const {
    if (!McpHostAllowed(req.Header("Host"), options_)) {
      return ErrorResponse(403, "Host not allowed for /mcp");
    }
    if (!McpOriginAllowed(req.Header("Origin"), options_)) {
      return ErrorResponse(403, "Origin not allowed for /mcp");
    }
    return std::nullopt;
  }

  std::shared_ptr<mcp::McpServerSession> Find(std::string_view id) {
    std::lock_guard lock(mu_);
    auto it = sessions_.find(std::string(id));
    if (it == sessions_.end()) return nullptr;
    auto now = Clock::now();
    if (now - it->second.last_used > options_.idle_timeout) {
      sessions_.erase(it);
      return nullptr;
    }
    it->second.last_used = now;
    return it->second.session;
  }

  void Add(const std::string& id, std::shared_ptr<mcp::McpServerSession> session) {
    std::lock_guard lock(mu_);
    auto now = Clock::now();
    std::erase_if(sessions_, [&](const auto& kv) {
      return now - kv.second.last_used > options_.idle_timeout;
    });
    if (sessions_.size() >= options_.max_sessions && !sessions_.empty()) {
      auto lru = std::ranges::min_element(sessions_, {},
                                          [](const auto& kv) { return kv.second.last_used; });
      sessions_.erase(lru);
    }
    sessions_[id] = Entry{std::move(session), now};
  }

  const Runtime& runtime_;
  const McpRoutesOptions options_;
  std::mutex mu_;
  std::map<std::string, Entry, std::less<>> sessions_;
};

}  // namespace

bool McpHostAllowed(std::string_view host_header, const McpRoutesOptions& options) {
  if (host_header.empty()) return false;  // HTTP/1.1 requires Host
  std::string host = HostPart(host_header);
  if (IsLoopbackHost(host)) return true;
  return std::ranges::any_of(options.allowed_hosts,
                             [&](const std::string& h) { return h == "*" || Lower(h) == host; });
}

bool McpOriginAllowed(std::string_view origin, const McpRoutesOptions& options) {
  if (origin.empty()) return true;  // not a browser: DNS rebinding needs one
  if (std::ranges::find(options.allowed_origins, origin) != options.allowed_origins.end()) {
    return true;
  }
  std::string o = Lower(origin);
  for (std::string_view scheme : {"http://", "https://"}) {
    if (o.starts_with(scheme))
      return IsLoopbackHost(HostPart(std::string_view(o).substr(scheme.size())));
  }
  return false;
}

void AddMcpRoutes(Router& router, const Runtime& runtime, McpRoutesOptions options) {
  std::string path = options.path;
  auto endpoint = std::make_shared<McpEndpoint>(runtime, std::move(options));
  router.Add("POST", path, [endpoint](const HttpRequest& r) { return endpoint->Post(r); },
             {.blocking = true});
  router.Add("DELETE", path, [endpoint](const HttpRequest& r) { return endpoint->Delete(r); });
  router.Add("GET", path, [endpoint](const HttpRequest& r) { return endpoint->Get(r); });
}

}  // namespace clawtools
