#include "mcp/session.h"

#include <stop_token>

namespace clawtools::mcp {

JsonRpcSession::JsonRpcSession(std::unique_ptr<Transport> transport, Handlers handlers,
                               std::shared_ptr<CallLog> log)
    : transport_(std::move(transport)), handlers_(std::move(handlers)), log_(std::move(log)) {}

JsonRpcSession::~JsonRpcSession() {
  Close();
}

Status JsonRpcSession::Start() {
  return transport_->Start([this](Json v) { OnMessage(std::move(v)); },
                           [this](const Error& e) { OnTransportClosed(e); });
}

void JsonRpcSession::Log(LogLevel level, std::string_view msg, Json fields) const {
  if (!log_) return;
  fields["peer"] = transport_->Describe();
  log_->Event(level, msg, std::move(fields));
}

bool JsonRpcSession::alive() const {
  std::lock_guard lock(mu_);
  return !closed_;
}

std::string JsonRpcSession::close_reason() const {
  std::lock_guard lock(mu_);
  return close_reason_;
}

void JsonRpcSession::FailAll(const std::string& reason) {
  std::lock_guard lock(mu_);
  if (!closed_) {
    closed_ = true;
    close_reason_ = reason;
  }
  for (auto& [id, p] : pending_) {
    if (!p->answer) {
      Message m;
      m.kind = MessageKind::kResponse;
      m.error = {{"code", rpc_code::kTransportError}, {"message", close_reason_}};
      p->answer = std::move(m);
    }
  }
  cv_.notify_all();
}

void JsonRpcSession::Close() {
  FailAll("connection closed");
  transport_->Close();
}

void JsonRpcSession::OnTransportClosed(const Error& error) {
  Log(LogLevel::kWarn, "mcp connection lost", {{"error", error.log_message()}});
  FailAll(error.for_model);
  if (handlers_.on_close) handlers_.on_close(error);
}

Expected<Json> JsonRpcSession::Call(const std::string& method, Json params,
                                    const CallOptions& options) {
  auto pending = std::make_shared<Pending>();
  pending->on_progress = options.on_progress;
  int64_t id;
  {
    std::lock_guard lock(mu_);
    if (closed_) return Fail(ErrorCode::kUnavailable, method + ": " + close_reason_);
    id = next_id_++;
    pending_[id] = pending;
  }
  if (options.on_progress) {
    if (!params.is_object()) params = Json::object();
    params["_meta"]["progressToken"] = id;
  }
  AnswerWait wait;
  wait.deadline = options.deadline;
  wait.stop = options.stop;
  wait.answered = [this, &pending] {
    std::lock_guard lock(mu_);
    return pending->answer.has_value();
  };
  if (auto st = transport_->SendRequest(MakeRequest(id, method, std::move(params)), wait); !st) {
    std::lock_guard lock(mu_);
    pending_.erase(id);
    return std::unexpected(st.error());
  }

  // The stop callback only wakes the waiter; the decision is made under the lock below. It is
  // registered before the lock is taken because it runs inline when stop was already requested.
  std::stop_callback wake(options.stop, [this] {
    std::lock_guard l(mu_);
    cv_.notify_all();
  });
  std::unique_lock lock(mu_);
  bool answered = cv_.wait_until(lock, options.deadline, [&] {
    return pending->answer.has_value() || options.stop.stop_requested();
  });
  pending_.erase(id);
  if (answered && pending->answer) {
    Message m = std::move(*pending->answer);
    lock.unlock();
    if (m.is_error_response()) return std::unexpected(RpcErrorToError(m.error, method));
    return std::move(m.result);
  }
  lock.unlock();
  bool stopped = options.stop.stop_requested();
  std::string reason = stopped ? "cancelled by the caller" : "timed out";
  // Best effort: the peer stops working on it; a late answer is dropped as unmatched.
  (void)Notify("notifications/cancelled", {{"requestId", id}, {"reason", reason}});
  Log(LogLevel::kInfo, "mcp request cancelled",
      {{"method", method}, {"id", id}, {"reason", reason}});
  if (stopped) return Fail(ErrorCode::kCancelled, method + ": " + reason);
  return Fail(ErrorCode::kDeadlineExceeded, method + ": " + reason);
}

Status JsonRpcSession::Notify(const std::string& method, Json params) {
  if (!alive()) return Fail(ErrorCode::kUnavailable, method + ": " + close_reason());
  return transport_->Send(MakeNotification(method, std::move(params)));
}

void JsonRpcSession::OnMessage(Json value) {
  Message m = Classify(value);
  switch (m.kind) {
    case MessageKind::kInvalid:
      Log(LogLevel::kWarn, "mcp: invalid JSON-RPC message skipped",
          {{"reason", m.invalid_reason}, {"message", value.dump().substr(0, 512)}});
      // A request we cannot parse still deserves an answer when it carried a usable id.
      if (!m.id.is_null() && value.contains("method")) {
        (void)transport_->Send(
            MakeErrorResponse(m.id, rpc_code::kInvalidRequest, m.invalid_reason));
      }
      return;
    case MessageKind::kResponse: {
      std::shared_ptr<Pending> p;
      {
        std::lock_guard lock(mu_);
        if (m.id.is_number_integer()) {
          auto it = pending_.find(m.id.get<int64_t>());
          if (it != pending_.end()) p = it->second;
        }
        if (p) {
          p->answer = std::move(m);
          cv_.notify_all();
          return;
        }
      }
      Log(LogLevel::kDebug, "mcp: unmatched response dropped (late answer to a cancelled call?)",
          {{"id", m.id}});
      return;
    }
    case MessageKind::kRequest:
      HandleRequest(m);
      return;
    case MessageKind::kNotification:
      if (m.method == "notifications/progress" && m.params.is_object()) {
        const Json& token = m.params.contains("progressToken") ? m.params["progressToken"] : Json();
        std::function<void(const Progress&)> cb;
        {
          std::lock_guard lock(mu_);
          if (token.is_number_integer()) {
            auto it = pending_.find(token.get<int64_t>());
            if (it != pending_.end()) cb = it->second->on_progress;
          }
        }
        if (cb) {
          Progress pr;
          pr.progress = m.params.value("progress", 0.0);
          if (m.params.contains("total") && m.params["total"].is_number()) {
            pr.total = m.params["total"].get<double>();
          }
          pr.message = m.params.value("message", std::string());
          cb(pr);
        }
        return;
      }
      if (handlers_.on_notification) handlers_.on_notification(m.method, m.params);
      return;
  }
}

void JsonRpcSession::HandleRequest(const Message& m) {
  Expected<Json> answer = Fail(ErrorCode::kNotFound, "method not found: " + m.method);
  if (handlers_.on_request) {
    answer = handlers_.on_request(m.method, m.params);
  } else if (m.method == "ping") {
    answer = Json::object();
  }
  if (answer) {
    (void)transport_->Send(MakeResult(m.id, std::move(*answer)));
    return;
  }
  int code = answer.error().code == ErrorCode::kNotFound          ? rpc_code::kMethodNotFound
             : answer.error().code == ErrorCode::kInvalidArgument ? rpc_code::kInvalidParams
                                                                  : rpc_code::kInternalError;
  (void)transport_->Send(MakeErrorResponse(m.id, code, answer.error().for_model));
}

}  // namespace clawtools::mcp
