// JSON-RPC 2.0 message shapes, shared by the MCP client and (later) the MCP server side.
//
// Classification is total: every parsed value is a request, a notification, a response, or
// invalid with a reason. Nothing here does I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/json.h"

namespace clawtools::mcp {

// Standard JSON-RPC error codes plus the ones MCP uses.
namespace rpc_code {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
// Not on the wire from a server: a transport that could not deliver a request answers it
// locally with this code so the waiting caller fails now instead of at its deadline.
inline constexpr int kTransportError = -32099;
}  // namespace rpc_code

enum class MessageKind { kRequest, kNotification, kResponse, kInvalid };

struct Message {
  MessageKind kind = MessageKind::kInvalid;
  Json id;  // request/response id (number or string); null otherwise
  std::string method;
  Json params;  // object, array or null
  Json result;  // response success
  Json error;   // response error object {code, message, data?}
  std::string invalid_reason;

  bool is_error_response() const { return kind == MessageKind::kResponse && !error.is_null(); }
};

// Classifies one JSON value. A batch (array) is kInvalid here; transports split batches.
Message Classify(const Json& value);

Json MakeRequest(const Json& id, std::string_view method, Json params = nullptr);
Json MakeNotification(std::string_view method, Json params = nullptr);
Json MakeResult(const Json& id, Json result);
Json MakeErrorResponse(const Json& id, int code, std::string_view message, Json data = nullptr);

// Maps an error object of a response to an Error, naming the method it answered.
Error RpcErrorToError(const Json& error, std::string_view method);

}  // namespace clawtools::mcp
