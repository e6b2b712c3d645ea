// A Transport decorator that enforces a grant's tool filter on the wire, so an agent's
// McpManager can neither see nor call a tool its grants exclude, whatever it re-lists later
// (tools/list_changed included): tools/list answers lose the excluded tools, and a tools/call
// for one is refused before it leaves the process.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "mcp/transport.h"

namespace clawtools::mcp {

class FilteredTransport final : public Transport {
 public:
  using Allows = std::function<bool(std::string_view tool)>;
  FilteredTransport(std::unique_ptr<Transport> inner, Allows allows)
      : inner_(std::move(inner)), allows_(std::move(allows)) {}

  Status Start(MessageHandler on_message, CloseHandler on_close) override;
  // Both: kPermissionDenied for tools/call of an excluded tool.
  Status Send(const Json& message) override;
  Status SendRequest(const Json& request, const AnswerWait& wait) override;
  void Close() override { inner_->Close(); }
  void SetProtocolVersion(const std::string& version) override {
    inner_->SetProtocolVersion(version);
  }
  std::string Describe() const override { return inner_->Describe(); }

 private:
  // Remembers tools/list ids, whose answers are filtered.
  Status Check(const Json& message);

  std::unique_ptr<Transport> inner_;
  Allows allows_;
  std::mutex mu_;
  std::set<std::string> list_ids_;  // ids (dumped) of tools/list requests in flight
};

}  // namespace clawtools::mcp
