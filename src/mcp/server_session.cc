#include "mcp/server_session.h"

#include <charconv>
#include <filesystem>
#include <fstream>

#include "mcp/jsonrpc.h"
#include "mcp/protocol.h"

namespace clawtools::mcp {

McpServerSession::McpServerSession(std::shared_ptr<const ToolBackend> backend,
                                   ServerSessionOptions options)
    : backend_(std::move(backend)), options_(std::move(options)) {}

std::string McpServerSession::protocol_version() const {
  std::lock_guard lock(mu_);
  return protocol_version_;
}

Json McpServerSession::Handle(const Json& message) {
  if (!message.is_array()) return HandleOne(message);
  if (message.empty()) return MakeErrorResponse(nullptr, rpc_code::kInvalidRequest, "empty batch");
  Json out = Json::array();
  for (const Json& m : message) {
    Json r = HandleOne(m);
    if (!r.is_null()) out.push_back(std::move(r));
  }
  return out.empty() ? Json() : out;
}

Json McpServerSession::HandleOne(const Json& value) {
  Message m = Classify(value);
  switch (m.kind) {
    case MessageKind::kInvalid:
      return MakeErrorResponse(m.id, rpc_code::kInvalidRequest, m.invalid_reason);
    case MessageKind::kResponse:  // we send no requests; nothing to match
      return nullptr;
    case MessageKind::kNotification:
      if (m.method == "notifications/cancelled") Cancel(m.params);
      return nullptr;
    case MessageKind::kRequest:
      break;
  }
  auto result = Dispatch(m.method, m.params, m.id);
  if (result) return MakeResult(m.id, std::move(*result));
  int code = rpc_code::kInternalError;
  switch (result.error().code) {
    case ErrorCode::kNotFound:
      code = m.method == "tools/call" ? rpc_code::kInvalidParams : rpc_code::kMethodNotFound;
      break;
    case ErrorCode::kInvalidArgument:
      code = rpc_code::kInvalidParams;
      break;
    case ErrorCode::kPermissionDenied:
      code = rpc_code::kInvalidRequest;
      break;
    default:
      break;
  }
  return MakeErrorResponse(m.id, code, result.error().for_model);
}

Expected<Json> McpServerSession::Dispatch(const std::string& method, const Json& params,
                                          const Json& id) {
  if (method == "ping") return Json::object();
  if (method == "initialize") return Initialize(params);
  // Clients must initialize first (a stateless 2026 client would not, and is told so).
  if (!initialized_) {
    return Fail(ErrorCode::kPermissionDenied, "session not initialized: send initialize first");
  }
  if (method == "tools/list") return ListTools(params);
  if (method == "tools/call") return CallTool(params, id);
  return Fail(ErrorCode::kNotFound, "method not found: " + method);
}

Json McpServerSession::Initialize(const Json& params) {
  std::string requested;
  if (params.is_object()) requested = params.value("protocolVersion", "");
  std::string version = NegotiateServerVersion(requested);
  {
    std::lock_guard lock(mu_);
    protocol_version_ = version;
  }
  // The answer to initialize is what makes the session usable; notifications/initialized is
  // informational for a tools-only server, and HTTP clients may send it on another connection.
  initialized_ = true;
  Json result = {
      {"protocolVersion", version},
      {"capabilities", {{"tools", {{"listChanged", false}}}}},
      {"serverInfo", {{"name", options_.server_name}, {"version", options_.server_version}}}};
  if (!options_.instructions.empty()) result["instructions"] = options_.instructions;
  return result;
}

Expected<Json> McpServerSession::ListTools(const Json& params) const {
  Json all = backend_->ListTools();
  size_t start = 0;
  if (params.is_object() && params.contains("cursor") && !params["cursor"].is_null()) {
    const Json& c = params["cursor"];
    std::string s = c.is_string() ? c.get<std::string>() : "";
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), start);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || start > all.size()) {
      return Fail(ErrorCode::kInvalidArgument, "invalid cursor");
    }
  }
  size_t n = options_.page_size == 0 ? all.size() : options_.page_size;
  size_t stop = std::min(all.size(), start + n);
  Json page = Json::array();
  for (size_t i = start; i < stop; ++i) page.push_back(std::move(all[i]));
  Json result = {{"tools", std::move(page)}};
  if (stop < all.size()) result["nextCursor"] = std::to_string(stop);
  return result;
}

Expected<Json> McpServerSession::CallTool(const Json& params, const Json& id) {
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
    return Fail(ErrorCode::kInvalidArgument, "tools/call needs params.name (a string)");
  }
  Json args = params.value("arguments", Json::object());
  if (args.is_null()) args = Json::object();
  if (!args.is_object()) return Fail(ErrorCode::kInvalidArgument, "arguments must be an object");

  const std::string key = id.dump();
  std::stop_source stop;
  {
    std::lock_guard lock(mu_);
    in_flight_[key] = stop;
  }
  auto result = backend_->CallTool(params["name"].get<std::string>(), args, stop.get_token());
  {
    std::lock_guard lock(mu_);
    in_flight_.erase(key);
  }
  if (!result) {
    if (result.error().code == ErrorCode::kNotFound) {
      return Fail(ErrorCode::kNotFound, "Unknown tool: " + params["name"].get<std::string>());
    }
    return std::unexpected(result.error());
  }
  return ResultToCallToolResult(*result);
}

void McpServerSession::Cancel(const Json& params) {
  if (!params.is_object() || !params.contains("requestId")) return;
  std::lock_guard lock(mu_);
  if (auto it = in_flight_.find(params["requestId"].dump()); it != in_flight_.end()) {
    it->second.request_stop();
  }
}

namespace {

std::string Base64(std::string_view in) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  for (size_t i = 0; i < in.size(); i += 3) {
    uint32_t n = static_cast<uint8_t>(in[i]) << 16;
    if (i + 1 < in.size()) n |= static_cast<uint8_t>(in[i + 1]) << 8;
    if (i + 2 < in.size()) n |= static_cast<uint8_t>(in[i + 2]);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(i + 1 < in.size() ? kAlphabet[(n >> 6) & 63] : '=');
    out.push_back(i + 2 < in.size() ? kAlphabet[n & 63] : '=');
  }
  return out;
}

Json MediaContent(const MediaFile& m, size_t max_bytes) {
  std::error_code ec;
  auto size = std::filesystem::file_size(m.path, ec);
  if (ec || size > max_bytes) {
    return {
        {"type", "text"},
        {"text", "[media " + m.mime_type + " not attached: " +
                     (ec ? "unreadable" : "larger than " + std::to_string(max_bytes) + " bytes") +
                     "]"}};
  }
  std::ifstream in(m.path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string mime = m.mime_type.empty() ? "application/octet-stream" : m.mime_type;
  if (mime.starts_with("image/") || mime.starts_with("audio/")) {
    return {{"type", mime.starts_with("image/") ? "image" : "audio"},
            {"data", Base64(bytes)},
            {"mimeType", mime}};
  }
  return {{"type", "resource"},
          {"resource", {{"uri", "file://" + m.path}, {"mimeType", mime}, {"blob", Base64(bytes)}}}};
}

}  // namespace

Json ResultToCallToolResult(const Result& result, size_t max_media_bytes) {
  Json content = Json::array();
  if (!result.for_llm.empty() || result.media.empty()) {
    content.push_back({{"type", "text"}, {"text", result.for_llm}});
  }
  for (const auto& m : result.media) content.push_back(MediaContent(m, max_media_bytes));
  return {{"content", std::move(content)}, {"isError", result.is_error}};
}

}  // namespace clawtools::mcp
