// McpServerSession: the server side of one MCP connection, independent of the transport
// (stdio lines, HTTP POSTs, in-process tests and benchmarks).
//
// Speaks the lifecycle (initialize with version negotiation over SupportedProtocolVersions(),
// notifications/initialized), ping, tools/list (cursor pagination over the backend's list) and
// tools/call; every other method answers -32601. Requests before initialize answer -32600
// except ping. notifications/cancelled stops the named in-flight call through its stop token.
// An unknown tool answers -32602 (the spec's "Unknown tool"); a tool that ran and failed
// (policy refusal included) answers a result with isError: true, as the spec asks, so the
// model sees why.
//
// Thread-safe: Handle() may run concurrently for different requests (a slow call does not
// block ping or cancellation of itself).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "version.h"
#include "core/error.h"
#include "core/json.h"
#include "core/result.h"

namespace clawtools::mcp {

// What a session serves. Implementations apply their own policy: the runtime's backend lists
// the policy-filtered tools and calls through the full pipeline.
class ToolBackend {
 public:
  virtual ~ToolBackend() = default;
  // MCP tool objects ({name, description, inputSchema}), in a stable order.
  virtual Json ListTools() const = 0;
  // kNotFound when no such tool is offered; otherwise the tool's result (errors included).
  virtual Expected<Result> CallTool(const std::string& name, const Json& arguments,
                                    std::stop_token stop) const = 0;
};

struct ServerSessionOptions {
  std::string server_name = "clawtools";
  std::string server_version = CLAWTOOLS_VERSION;
  std::string instructions;
  size_t page_size = 100;  // tools/list page; 0: everything in one page
};

class McpServerSession {
 public:
  McpServerSession(std::shared_ptr<const ToolBackend> backend, ServerSessionOptions options);

  // One message or a batch (array). Returns the response (an array for a batch), or null when
  // nothing is to be answered (notifications, responses, a batch of only those).
  Json Handle(const Json& message);

  bool initialized() const { return initialized_; }
  // Empty before initialize.
  std::string protocol_version() const;

 private:
  Json HandleOne(const Json& message);
  Expected<Json> Dispatch(const std::string& method, const Json& params, const Json& id);
  Json Initialize(const Json& params);
  Expected<Json> ListTools(const Json& params) const;
  Expected<Json> CallTool(const Json& params, const Json& id);
  void Cancel(const Json& params);

  std::shared_ptr<const ToolBackend> backend_;
  ServerSessionOptions options_;
  std::atomic<bool> initialized_{false};

  mutable std::mutex mu_;
  std::string protocol_version_;
  std::map<std::string, std::stop_source> in_flight_;  // request id (dumped) -> its stop source
};

// A Result as an MCP CallToolResult: a text item (for_llm), then one item per media file
// (image/* -> image, audio/* -> audio, anything else -> an embedded resource with a blob),
// and isError. A media file that cannot be read or exceeds `max_media_bytes` becomes a text
// item saying so, never a failed call.
Json ResultToCallToolResult(const Result& result, size_t max_media_bytes = 16 << 20);

}  // namespace clawtools::mcp
