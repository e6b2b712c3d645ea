// McpClient: one initialised MCP connection (lifecycle over a JsonRpcSession).
//
// Connect() runs initialize -> version check -> notifications/initialized, bounded by the
// connect timeout; it tolerates servers that send notifications (tools/list_changed) before
// answering initialize. Requests from the server are answered minimally: ping, and roots/list
// with no roots; sampling and elicitation get "method not found" (a tool bridge has no model
// or user to hand them to). Thread-safe: several calls may be in flight.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/call_log.h"
#include "core/error.h"
#include "core/json.h"
#include "mcp/protocol.h"
#include "mcp/session.h"
#include "mcp/transport.h"

namespace clawtools::mcp {

struct McpToolDef {
  std::string name;
  std::string title;
  std::string description;
  Json input_schema;   // normalised: an object schema with "properties"
  Json output_schema;  // null when absent
  Json annotations;    // null when absent

  // SHA-256 (hex) of name, description and both schemas in canonical JSON: what the model is
  // told the tool does, i.e. what a reviewer approves. Title and annotations are display hints.
  std::string DefinitionHash() const;
  static McpToolDef FromJson(const Json& tool);
};

struct McpClientOptions {
  ClientInfo client_info;
  std::chrono::milliseconds connect_timeout{30000};
  std::shared_ptr<CallLog> log;
  // Notifications other than progress (tools/list_changed, logging, ...), on a transport
  // thread: must not call back into the client synchronously.
  std::function<void(const std::string& method, const Json& params)> on_notification;
  // The connection died on its own (not by Close()); on a transport thread.
  std::function<void(const Error&)> on_close;
};

class McpClient {
 public:
  static Expected<std::unique_ptr<McpClient>> Connect(std::unique_ptr<Transport> transport,
                                                      McpClientOptions options);
  ~McpClient();

  const std::string& protocol_version() const { return protocol_version_; }
  const Json& server_info() const { return server_info_; }
  const Json& server_capabilities() const { return capabilities_; }

  // tools/list, every page (bounded at 100 pages against a cursor loop).
  Expected<std::vector<McpToolDef>> ListTools(std::chrono::milliseconds timeout);
  // tools/call; the raw result object. Timeout and stop send notifications/cancelled.
  Expected<Json> CallTool(const std::string& name, const Json& arguments,
                          const CallOptions& options);
  // "method not found" counts as alive: old servers lack ping.
  Status Ping(std::chrono::milliseconds timeout);

  bool alive() const { return session_->alive(); }
  std::string close_reason() const { return session_->close_reason(); }
  void Close() { session_->Close(); }
  Transport& transport() { return session_->transport(); }

 private:
  explicit McpClient(std::unique_ptr<JsonRpcSession> session) : session_(std::move(session)) {}

  std::unique_ptr<JsonRpcSession> session_;
  std::string protocol_version_;
  Json server_info_;
  Json capabilities_;
};

}  // namespace clawtools::mcp
