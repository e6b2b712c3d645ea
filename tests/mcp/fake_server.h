// An in-process MCP server over a socketpair, scripted for the quirks real servers show:
// a non-JSON line and tools/list_changed before the initialize answer, a tool that never
// answers, and a description tests can change to provoke drift.
#pragma once

#include <sys/socket.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/json.h"
#include "mcp/line_transport.h"
#include "core/unique_fd.h"

namespace clawtools::mcp::testing {

struct FakeServerScript {
  std::mutex mu;
  std::string echo_description = "Echoes its input";
  std::string protocol_version;  // empty: echo the client's
  std::vector<Json> received;    // every message the server got
};

class FakeServer {
 public:
  explicit FakeServer(std::shared_ptr<FakeServerScript> script) : script_(std::move(script)) {
    int sv[2];
    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
    client_end_.reset(sv[0]);
    server_end_.reset(sv[1]);
    thread_ = std::thread([this] { Run(); });
  }
  ~FakeServer() {
    ::shutdown(server_end_.get(), SHUT_RDWR);
    thread_.join();
  }

  // The client side: a LineTransport over the other end of the socketpair.
  std::unique_ptr<Transport> ClientTransport() {
    UniqueFd read(::dup(client_end_.get()));
    return std::make_unique<LineTransport>(std::move(read), std::move(client_end_), UniqueFd(),
                                           LineTransportOptions{.describe = "fake"});
  }
  // Simulates a crash: the client sees end-of-stream.
  void Kill() { ::shutdown(server_end_.get(), SHUT_RDWR); }
  void SendRaw(const std::string& s) {
    std::lock_guard lock(write_mu_);
    (void)!::send(server_end_.get(), s.data(), s.size(), MSG_NOSIGNAL);
  }
  void Send(const Json& j) { SendRaw(j.dump() + "\n"); }

 private:
  void Run() {
    std::string buf;
    char chunk[4096];
    for (;;) {
      ssize_t n = ::recv(server_end_.get(), chunk, sizeof chunk, 0);
      if (n <= 0) return;
      buf.append(chunk, static_cast<size_t>(n));
      for (size_t nl; (nl = buf.find('\n')) != std::string::npos;) {
        Json m = Json::parse(buf.substr(0, nl), nullptr, false);
        buf.erase(0, nl + 1);
        if (!m.is_discarded()) Handle(m);
      }
    }
  }

  void Handle(const Json& m) {
    std::string method = m.value("method", "");
    std::string desc, version;
    {
      std::lock_guard lock(script_->mu);
      script_->received.push_back(m);
      desc = script_->echo_description;
      version = script_->protocol_version;
    }
    if (!m.contains("id") || method.empty()) return;
    Json id = m["id"];
    auto reply = [&](Json result) {
      Send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
    };
    if (method == "initialize") {
      SendRaw("Server starting... (not JSON)\n\n");
      Send({{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}});
      Send({{"jsonrpc", "1.0"}, {"id", 99}, {"result", {}}});  // malformed: wrong version
      reply({{"protocolVersion", version.empty() ? m["params"]["protocolVersion"] : Json(version)},
             {"capabilities", {{"tools", {{"listChanged", true}}}}},
             {"serverInfo", {{"name", "fake"}, {"version", "1"}}}});
    } else if (method == "tools/list") {
      Json schema = {{"type", "object"}, {"properties", {{"message", {{"type", "string"}}}}}};
      if (!m.contains("params") || !m["params"].contains("cursor")) {
        reply({{"tools", {{{"name", "echo"}, {"description", desc}, {"inputSchema", schema}}}},
               {"nextCursor", "page2"}});
      } else {
        reply({{"tools",
                {{{"name", "slow"},
                  {"description", "Never answers"},
                  {"inputSchema", {{"type", "object"}}}}}}});
      }
    } else if (method == "tools/call") {
      std::string tool = m["params"].value("name", "");
      if (tool == "echo") {
        reply({{"content",
                {{{"type", "text"},
                  {"text", "Echo: " + m["params"]["arguments"].value("message", "")}}}}});
      }
      // "slow" never answers: the client must time out and cancel.
    } else if (method == "ping") {
      reply(Json::object());
    } else {
      Send({{"jsonrpc", "2.0"},
            {"id", id},
            {"error", {{"code", -32601}, {"message", "Method not found"}}}});
    }
  }

  std::shared_ptr<FakeServerScript> script_;
  UniqueFd client_end_, server_end_;
  std::mutex write_mu_;
  std::thread thread_;
};

}  // namespace clawtools::mcp::testing
