// Per-call values. A CallContext is built once per call by the registry and never mutated,
// so tool instances can be shared across threads: all per-call state lives here.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/json.h"

namespace clawtools {

enum class PeerKind { kUnspecified, kDirect, kGroup };

const char* PeerKindName(PeerKind kind);
std::optional<PeerKind> ParsePeerKind(std::string_view s);

// What the caller supplies for one call (the agent loop, the CLI, the HTTP API, the MCP server).
struct CallRequest {
  std::string tool;
  Json args = Json::object();  // validated against the tool's schema by the pipeline
  std::string channel;
  std::string chat_id;
  PeerKind peer_kind = PeerKind::kUnspecified;
  std::string session_key;  // also the sandbox key
  std::string agent_id;
  std::string user_id;
  std::string provider;                 // LLM provider name, for byProvider policy
  std::vector<std::string> group_allow; // per-request allow list (chat group, forum topic)
  int subagent_depth = 0;               // 0 = main agent
  std::string workspace;                // overrides the configured workspace when non-empty
  std::optional<std::chrono::milliseconds> timeout;  // overrides the registry default
  std::stop_token cancel;               // caller-side cancellation
};

class CallContext {
 public:
  using Clock = std::chrono::steady_clock;

  CallContext() = default;
  CallContext(const CallRequest& req, std::string canonical_tool, std::string workspace,
              Clock::time_point deadline, std::stop_token stop)
      : tool_(std::move(canonical_tool)),
        channel_(req.channel),
        chat_id_(req.chat_id),
        peer_kind_(req.peer_kind),
        session_key_(req.session_key),
        agent_id_(req.agent_id),
        user_id_(req.user_id),
        provider_(req.provider),
        group_allow_(req.group_allow),
        subagent_depth_(req.subagent_depth),
        workspace_(std::move(workspace)),
        deadline_(deadline),
        stop_(std::move(stop)) {}

  const std::string& tool() const { return tool_; }
  const std::string& channel() const { return channel_; }
  const std::string& chat_id() const { return chat_id_; }
  PeerKind peer_kind() const { return peer_kind_; }
  const std::string& session_key() const { return session_key_; }
  const std::string& sandbox_key() const { return session_key_; }
  const std::string& agent_id() const { return agent_id_; }
  const std::string& user_id() const { return user_id_; }
  const std::string& provider() const { return provider_; }
  const std::vector<std::string>& group_allow() const { return group_allow_; }
  int subagent_depth() const { return subagent_depth_; }
  bool is_subagent() const { return subagent_depth_ > 0; }
  const std::string& workspace() const { return workspace_; }

  Clock::time_point deadline() const { return deadline_; }
  // Time left before the deadline, never negative.
  std::chrono::milliseconds remaining() const;
  // Cancellation is cooperative: a tool that blocks waits on stop_token() (std::stop_callback)
  // and bounds its waits by deadline(). The registry checks both before the tool starts.
  bool cancelled() const { return stop_.stop_requested(); }
  bool expired() const { return Clock::now() >= deadline_; }
  std::stop_token stop_token() const { return stop_; }

 private:
  std::string tool_;
  std::string channel_;
  std::string chat_id_;
  PeerKind peer_kind_ = PeerKind::kUnspecified;
  std::string session_key_;
  std::string agent_id_;
  std::string user_id_;
  std::string provider_;
  std::vector<std::string> group_allow_;
  int subagent_depth_ = 0;
  std::string workspace_;
  Clock::time_point deadline_ = Clock::time_point::max();
  std::stop_token stop_;
};

}  // namespace clawtools
