#include "mcp/access_transport.h"

namespace clawtools::mcp {

Status FilteredTransport::Start(MessageHandler on_message, CloseHandler on_close) {
  return inner_->Start(
      [this, on_message = std::move(on_message)](Json m) {
        if (m.is_object() && m.contains("id") && m.contains("result")) {
          bool is_list = false;
          {
            std::lock_guard lock(mu_);
            is_list = list_ids_.erase(m["id"].dump()) > 0;
          }
          Json& result = m["result"];
          if (is_list && result.is_object() && result.contains("tools") &&
              result["tools"].is_array()) {
            Json kept = Json::array();
            for (auto& t : result["tools"]) {
              if (t.is_object() && t.value("name", "") != "" &&
                  allows_(t["name"].get<std::string>())) {
                kept.push_back(std::move(t));
              }
            }
            result["tools"] = std::move(kept);
          }
        }
        on_message(std::move(m));
      },
      std::move(on_close));
}

Status FilteredTransport::Send(const Json& message) {
  if (auto st = Check(message); !st) return st;
  return inner_->Send(message);
}

Status FilteredTransport::SendRequest(const Json& request, const AnswerWait& wait) {
  if (auto st = Check(request); !st) return st;
  return inner_->SendRequest(request, wait);
}

Status FilteredTransport::Check(const Json& message) {
  if (message.is_object() && message.contains("id")) {
    std::string method = message.value("method", "");
    if (method == "tools/list") {
      std::lock_guard lock(mu_);
      list_ids_.insert(message["id"].dump());
    } else if (method == "tools/call") {
      const Json& params = message.value("params", Json::object());
      std::string tool = params.is_object() ? params.value("name", "") : "";
      if (!allows_(tool)) {
        return Fail(ErrorCode::kPermissionDenied, "tool " + tool + " is not granted");
      }
    }
  }
  return {};
}

}  // namespace clawtools::mcp
