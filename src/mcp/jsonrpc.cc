#include "mcp/jsonrpc.h"

namespace clawtools::mcp {
namespace {

bool ValidId(const Json& id) {
  return id.is_string() || id.is_number_integer() || id.is_number_unsigned();
}

Message Invalid(std::string reason, Json id = nullptr) {
  Message m;
  m.invalid_reason = std::move(reason);
  // Keep a usable id so the receiver can answer "invalid request" to the right caller.
  if (ValidId(id)) m.id = std::move(id);
  return m;
}

}  // namespace

Message Classify(const Json& v) {
  if (!v.is_object()) return Invalid("not a JSON object");
  Json id = v.contains("id") ? v["id"] : Json();
  auto jsonrpc = v.find("jsonrpc");
  if (jsonrpc == v.end() || *jsonrpc != "2.0") return Invalid("missing \"jsonrpc\": \"2.0\"", id);
  auto method = v.find("method");
  if (method != v.end()) {
    if (!method->is_string()) return Invalid("\"method\" is not a string", id);
    Message m;
    m.method = method->get<std::string>();
    m.params = v.contains("params") ? v["params"] : Json();
    if (!m.params.is_null() && !m.params.is_object() && !m.params.is_array()) {
      return Invalid("\"params\" is neither an object nor an array", id);
    }
    if (!v.contains("id")) {
      m.kind = MessageKind::kNotification;
      return m;
    }
    if (!ValidId(id)) return Invalid("request id must be a string or an integer");
    m.kind = MessageKind::kRequest;
    m.id = std::move(id);
    return m;
  }
  bool has_result = v.contains("result");
  bool has_error = v.contains("error");
  if (has_result == has_error)
    return Invalid("a response needs exactly one of result and error", id);
  // A response to a request the peer could not parse carries a null id: valid, but unmatched.
  if (!ValidId(id) && !id.is_null()) return Invalid("response id must be a string or an integer");
  Message m;
  m.kind = MessageKind::kResponse;
  m.id = std::move(id);
  if (has_result) {
    m.result = v["result"];
  } else {
    const Json& e = v["error"];
    if (!e.is_object() || !e.contains("code") || !e["code"].is_number_integer()) {
      return Invalid("malformed error object", m.id);
    }
    m.error = e;
  }
  return m;
}

Json MakeRequest(const Json& id, std::string_view method, Json params) {
  Json j = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) j["params"] = std::move(params);
  return j;
}

Json MakeNotification(std::string_view method, Json params) {
  Json j = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) j["params"] = std::move(params);
  return j;
}

Json MakeResult(const Json& id, Json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json MakeErrorResponse(const Json& id, int code, std::string_view message, Json data) {
  Json e = {{"code", code}, {"message", message}};
  if (!data.is_null()) e["data"] = std::move(data);
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(e)}};
}

Error RpcErrorToError(const Json& error, std::string_view method) {
  int code = error.value("code", rpc_code::kInternalError);
  std::string message = error.contains("message") && error["message"].is_string()
                            ? error["message"].get<std::string>()
                            : std::string("(no message)");
  std::string text = std::string(method) + ": " + message;
  switch (code) {
    case rpc_code::kMethodNotFound:
      return MakeError(ErrorCode::kNotFound, text + " (method not found)");
    case rpc_code::kInvalidParams:
      return MakeError(ErrorCode::kInvalidArgument, text);
    case rpc_code::kTransportError:
      return MakeError(ErrorCode::kUnavailable, text);
    default:
      return MakeError(ErrorCode::kInternal, text, text + " (code " + std::to_string(code) + ")");
  }
}

}  // namespace clawtools::mcp
