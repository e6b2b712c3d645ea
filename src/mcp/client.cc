#include "mcp/client.h"

#include <openssl/evp.h>

namespace clawtools::mcp {
namespace {

using Clock = std::chrono::steady_clock;

std::string Sha256Hex(std::string_view text) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(text.data(), text.size(), md, &len, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out.push_back(kHex[md[i] >> 4]);
    out.push_back(kHex[md[i] & 15]);
  }
  return out;
}

// What providers accept (goclaw-facts 8.3): type defaults to object, objects always carry
// properties.
Json NormaliseInputSchema(const Json& schema) {
  Json s = schema.is_object() ? schema : Json::object();
  if (!s.contains("type")) s["type"] = "object";
  if (s["type"] == "object" && !(s.contains("properties") && s["properties"].is_object())) {
    s["properties"] = Json::object();
  }
  return s;
}

std::string Str(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

McpToolDef McpToolDef::FromJson(const Json& t) {
  McpToolDef d;
  d.name = Str(t, "name");
  d.title = Str(t, "title");
  d.description = Str(t, "description");
  d.input_schema = NormaliseInputSchema(t.contains("inputSchema") ? t["inputSchema"] : Json());
  if (t.contains("outputSchema")) d.output_schema = t["outputSchema"];
  if (t.contains("annotations")) d.annotations = t["annotations"];
  return d;
}

std::string McpToolDef::DefinitionHash() const {
  // nlohmann::json objects are key-sorted, so dump() is canonical.
  Json canonical = {{"name", name},
                    {"description", description},
                    {"inputSchema", input_schema},
                    {"outputSchema", output_schema}};
  return Sha256Hex(canonical.dump());
}

McpClient::~McpClient() {
  session_->Close();
}

Expected<std::unique_ptr<McpClient>> McpClient::Connect(std::unique_ptr<Transport> transport,
                                                        McpClientOptions options) {
  JsonRpcSession::Handlers handlers;
  handlers.on_notification = options.on_notification;
  handlers.on_close = options.on_close;
  handlers.on_request = [](const std::string& method, const Json&) -> Expected<Json> {
    if (method == "ping") return Json::object();
    if (method == "roots/list") return Json{{"roots", Json::array()}};
    return Fail(ErrorCode::kNotFound, "method not found: " + method);
  };
  auto session =
      std::make_unique<JsonRpcSession>(std::move(transport), std::move(handlers), options.log);
  std::string peer = session->transport().Describe();
  if (auto st = session->Start(); !st) return std::unexpected(st.error());
  std::unique_ptr<McpClient> client(new McpClient(std::move(session)));

  CallOptions co;
  co.deadline = Clock::now() + options.connect_timeout;
  auto init = client->session_->Call("initialize", InitializeParams(options.client_info), co);
  if (!init) {
    Error e = init.error();
    e.for_model = "MCP initialize with " + peer + " failed: " + e.for_model;
    return std::unexpected(std::move(e));
  }
  if (!init->is_object())
    return Fail(ErrorCode::kUnavailable, "MCP initialize: the answer is not an object");
  auto version = AcceptServerVersion(Str(*init, "protocolVersion"));
  if (!version) return std::unexpected(version.error());
  client->protocol_version_ = *version;
  client->server_info_ = init->value("serverInfo", Json::object());
  client->capabilities_ = init->value("capabilities", Json::object());
  client->session_->transport().SetProtocolVersion(*version);
  if (auto st = client->session_->Notify("notifications/initialized"); !st)
    return std::unexpected(st.error());
  return client;
}

Expected<std::vector<McpToolDef>> McpClient::ListTools(std::chrono::milliseconds timeout) {
  std::vector<McpToolDef> out;
  CallOptions co;
  co.deadline = Clock::now() + timeout;
  Json cursor;
  for (int page = 0; page < 100; ++page) {
    Json params = Json::object();
    if (!cursor.is_null()) params["cursor"] = cursor;
    auto r = session_->Call("tools/list", std::move(params), co);
    if (!r) return std::unexpected(r.error());
    if (r->contains("tools") && (*r)["tools"].is_array()) {
      for (const Json& t : (*r)["tools"]) {
        if (t.is_object() && !Str(t, "name").empty()) out.push_back(McpToolDef::FromJson(t));
      }
    }
    auto next = r->find("nextCursor");
    if (next == r->end() || !next->is_string() || next->get<std::string>().empty()) return out;
    cursor = *next;
  }
  return Fail(ErrorCode::kUnavailable, "MCP tools/list: more than 100 pages (a cursor loop?)");
}

Expected<Json> McpClient::CallTool(const std::string& name, const Json& arguments,
                                   const CallOptions& options) {
  auto r = session_->Call("tools/call", {{"name", name}, {"arguments", arguments}}, options);
  if (r && !r->is_object())
    return Fail(ErrorCode::kUnavailable, "MCP tools/call: the answer is not an object");
  return r;
}

Status McpClient::Ping(std::chrono::milliseconds timeout) {
  CallOptions co;
  co.deadline = Clock::now() + timeout;
  auto r = session_->Call("ping", Json::object(), co);
  if (!r && r.error().code != ErrorCode::kNotFound) return std::unexpected(r.error());
  return {};
}

}  // namespace clawtools::mcp
