#include "gateway/invoke_request.h"

#include <algorithm>

#include "core/json.h"

namespace clawtools {

namespace {

std::unexpected<Error> BadField(std::string_view field, std::string_view expected) {
  return Fail(ErrorCode::kInvalidArgument,
              "field \"" + std::string(field) + "\" must be " + std::string(expected));
}

// Reads an optional string field into `out`.
Status ReadString(const Json& body, std::string_view field, std::string& out) {
  auto it = body.find(field);
  if (it == body.end() || it->is_null()) return {};
  if (!it->is_string()) return BadField(field, "a string");
  out = it->get<std::string>();
  return {};
}

// Reads an optional integer field within [min, max] into `out`.
Status ReadInt(const Json& body, std::string_view field, int64_t min, int64_t max, int64_t& out) {
  auto it = body.find(field);
  if (it == body.end() || it->is_null()) return {};
  if (!it->is_number_integer()) return BadField(field, "an integer");
  bool too_big = it->is_number_unsigned() && it->get<uint64_t>() > uint64_t(max);
  int64_t value = too_big ? max : it->get<int64_t>();
  if (too_big || value < min || value > max) {
    return BadField(field, "an integer from " + std::to_string(min) + " to " + std::to_string(max));
  }
  out = value;
  return {};
}

}  // namespace

Expected<CallRequest> ParseInvokeRequest(std::string tool, std::string_view body_text) {
  CallRequest request;
  request.tool = std::move(tool);
  if (body_text.find_first_not_of(" \t\r\n") == std::string_view::npos) return request;

  Json body = Json::parse(body_text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) {
    return Fail(ErrorCode::kInvalidArgument, "request body is not valid JSON");
  }
  if (!body.is_object())
    return Fail(ErrorCode::kInvalidArgument, "request body must be a JSON object");

  static constexpr std::string_view kFields[] = {
      "args", "session",  "channel",     "chat_id",        "peer_kind", "agent",
      "user", "provider", "group_allow", "subagent_depth", "timeout_ms"};
  for (const auto& [key, value] : body.items()) {
    if (std::find(std::begin(kFields), std::end(kFields), key) == std::end(kFields)) {
      return Fail(ErrorCode::kInvalidArgument, "unknown field \"" + key + "\"");
    }
  }

  if (auto it = body.find("args"); it != body.end() && !it->is_null()) {
    if (!it->is_object()) return BadField("args", "an object");
    request.args = *it;
  }
  for (auto [field, out] :
       {std::pair{"session", &request.session_key}, std::pair{"channel", &request.channel},
        std::pair{"chat_id", &request.chat_id}, std::pair{"agent", &request.agent_id},
        std::pair{"user", &request.user_id}, std::pair{"provider", &request.provider}}) {
    if (auto s = ReadString(body, field, *out); !s) return std::unexpected(s.error());
  }

  std::string peer_kind;
  if (auto s = ReadString(body, "peer_kind", peer_kind); !s) return std::unexpected(s.error());
  if (!peer_kind.empty()) {
    auto kind = ParsePeerKind(peer_kind);
    if (!kind || *kind == PeerKind::kUnspecified) {
      return BadField("peer_kind", "\"direct\" or \"group\"");
    }
    request.peer_kind = *kind;
  }

  if (auto it = body.find("group_allow"); it != body.end() && !it->is_null()) {
    if (!it->is_array()) return BadField("group_allow", "an array of strings");
    for (const Json& entry : *it) {
      if (!entry.is_string()) return BadField("group_allow", "an array of strings");
      request.group_allow.push_back(entry.get<std::string>());
    }
  }

  int64_t depth = 0;
  if (auto s = ReadInt(body, "subagent_depth", 0, 1000, depth); !s) {
    return std::unexpected(s.error());
  }
  request.subagent_depth = static_cast<int>(depth);

  int64_t timeout_ms = 0;
  if (auto s = ReadInt(body, "timeout_ms", 1, int64_t{24} * 3600 * 1000, timeout_ms); !s) {
    return std::unexpected(s.error());
  }
  if (timeout_ms > 0) request.timeout = std::chrono::milliseconds(timeout_ms);
  return request;
}

}  // namespace clawtools
