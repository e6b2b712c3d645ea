#include "mcp/manager.h"

#include <algorithm>
#include <set>

#include "mcp/stdio_transport.h"
#include "mcp/tool_name.h"

namespace clawtools::mcp {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

McpManager::McpManager(Registry& registry, McpManagerOptions options)
    : registry_(registry), options_(std::move(options)) {
  if (!options_.hashes) options_.hashes = std::make_shared<MemoryToolHashes>();
  if (!options_.transport_factory) {
    options_.transport_factory = [log = options_.log, t = options_.connect_timeout](
                                     const McpServerConfig& c) { return MakeTransport(c, log, t); };
  }
}

McpManager::~McpManager() {
  Shutdown();
}

void McpManager::Log(LogLevel level, std::string_view msg, Json fields) const {
  if (options_.log) options_.log->Event(level, msg, std::move(fields));
}

void McpManager::Wake() {
  std::lock_guard lock(mu_);
  wake_ = true;
  cv_.notify_all();
}

void McpManager::Start(std::vector<McpServerConfig> servers) {
  std::unique_lock lock(mu_);
  if (started_) return;
  started_ = true;
  for (auto& c : servers) {
    if (!c.enabled) continue;
    auto s = std::make_shared<ServerState>(std::move(c));
    s->max_attempts = options_.max_reconnect_attempts;
    servers_[s->config.name] = s;
    initial_.push_back(s);
  }
  initial_pending_ = !initial_.empty();
  worker_ = std::thread([this] { Run(); });
  cv_.wait(lock, [&] { return !initial_pending_ || stop_; });
}

void McpManager::Shutdown() {
  {
    std::lock_guard lock(mu_);
    if (stop_) return;
    stop_ = true;
    cv_.notify_all();
  }
  if (worker_.joinable()) worker_.join();
  std::lock_guard reg(reg_mu_);
  for (auto& [name, s] : servers_) {
    std::shared_ptr<McpClient> client;
    {
      std::lock_guard l(s->mu);
      s->phase = ServerPhase::kStopped;
      client = std::move(s->client);
      for (const auto& [tool, reg_name] : s->registered) registry_.Unregister(reg_name);
      s->registered.clear();
    }
    // Kills a stdio server even if a call in flight still holds the client.
    if (client) client->Close();
  }
}

void McpManager::Run() {
  for (;;) {
    std::vector<std::shared_ptr<ServerState>> initial;
    {
      std::lock_guard lock(mu_);
      if (stop_) return;
      initial.swap(initial_);
    }
    for (auto& s : initial) Connect(s);
    if (!initial.empty()) {
      std::lock_guard lock(mu_);
      initial_pending_ = false;
      cv_.notify_all();  // Start() waits for the first attempts
    }
    auto now = Clock::now();
    auto next = now + options_.health_interval;
    for (auto& [name, s] : servers_) {
      ServerPhase phase;
      bool refresh, due_attempt, due_ping, dead;
      {
        std::lock_guard l(s->mu);
        phase = s->phase;
        refresh = std::exchange(s->refresh_requested, false);
        due_attempt = phase == ServerPhase::kReconnecting && now >= s->next_attempt;
        due_ping = phase == ServerPhase::kConnected && now >= s->next_ping;
        dead = phase == ServerPhase::kConnected && s->client && !s->client->alive();
      }
      {
        std::lock_guard lock(mu_);
        if (stop_) return;
      }
      if (dead) {
        std::string why;
        {
          std::lock_guard l(s->mu);
          why = s->client->close_reason();
        }
        ScheduleRetry(s, why);
      } else if (due_attempt) {
        Connect(s);
      } else if (refresh && phase == ServerPhase::kConnected) {
        RefreshTools(s);
      } else if (due_ping) {
        HealthCheck(s);
      }
      std::lock_guard l(s->mu);
      if (s->phase == ServerPhase::kReconnecting) next = std::min(next, s->next_attempt);
      if (s->phase == ServerPhase::kConnected) next = std::min(next, s->next_ping);
      if (s->refresh_requested) next = now;
    }
    std::unique_lock lock(mu_);
    cv_.wait_until(lock, next, [&] { return stop_ || wake_ || !initial_.empty(); });
    wake_ = false;
    if (stop_) return;
  }
}

void McpManager::ScheduleRetry(const std::shared_ptr<ServerState>& s, const std::string& error) {
  std::shared_ptr<McpClient> old;
  {
    std::lock_guard l(s->mu);
    old = std::move(s->client);
    s->last_error = error;
    if (s->phase == ServerPhase::kConnected)
      s->attempts = 0;  // a fresh failure: new backoff series
    if (s->attempts >= options_.max_reconnect_attempts) {
      s->phase = ServerPhase::kFailed;
    } else {
      s->phase = ServerPhase::kReconnecting;
      auto delay = options_.backoff_initial * (1LL << std::min(s->attempts, 20));
      s->next_attempt =
          Clock::now() + std::min<std::chrono::milliseconds>(delay, options_.backoff_max);
    }
  }
  Log(LogLevel::kWarn, "mcp server unavailable",
      {{"server", s->config.name}, {"error", error}, {"attempts", s->attempts}});
  // Destroyed here, on the worker thread, never on a transport thread of its own.
  if (old) old->Close();
}

void McpManager::Connect(const std::shared_ptr<ServerState>& s) {
  uint64_t generation;
  {
    std::lock_guard l(s->mu);
    generation = ++s->generation;
    if (s->phase == ServerPhase::kReconnecting) ++s->attempts;
  }
  auto transport = options_.transport_factory(s->config);
  if (!transport) {
    ScheduleRetry(s, transport.error().for_model);
    return;
  }
  McpClientOptions co;
  co.client_info = options_.client_info;
  co.connect_timeout = options_.connect_timeout;
  co.log = options_.log;
  std::weak_ptr<ServerState> weak = s;
  co.on_notification = [this, weak](const std::string& method, const Json&) {
    if (method != "notifications/tools/list_changed") return;
    if (auto st = weak.lock()) {
      std::lock_guard l(st->mu);
      st->refresh_requested = true;
    }
    Wake();
  };
  co.on_close = [this, weak, generation](const Error& e) {
    auto st = weak.lock();
    if (!st) return;
    {
      std::lock_guard l(st->mu);
      if (st->generation != generation || st->phase != ServerPhase::kConnected) return;
      st->last_error = e.for_model;
    }
    Wake();
  };
  auto client = McpClient::Connect(std::move(*transport), std::move(co));
  if (!client) {
    ScheduleRetry(s, client.error().for_model);
    return;
  }
  std::shared_ptr<McpClient> c = std::move(*client);
  auto tools = c->ListTools(options_.list_timeout);
  if (!tools) {
    c->Close();
    ScheduleRetry(s, tools.error().for_model);
    return;
  }
  {
    std::lock_guard l(s->mu);
    s->client = c;
    s->phase = ServerPhase::kConnected;
    s->attempts = 0;
    s->last_error.clear();
    s->next_ping = Clock::now() + options_.health_interval;
  }
  Register(s, *tools);
  Log(LogLevel::kInfo, "mcp server connected",
      {{"server", s->config.name}, {"protocol", c->protocol_version()}, {"tools", tools->size()}});
}

void McpManager::HealthCheck(const std::shared_ptr<ServerState>& s) {
  auto client = s->Acquire();
  if (!client) return;
  if (auto st = (*client)->Ping(options_.ping_timeout); !st) {
    ScheduleRetry(s, "health check failed: " + st.error().for_model);
    return;
  }
  std::lock_guard l(s->mu);
  s->next_ping = Clock::now() + options_.health_interval;
}

void McpManager::RefreshTools(const std::shared_ptr<ServerState>& s) {
  auto client = s->Acquire();
  if (!client) return;
  auto tools = (*client)->ListTools(options_.list_timeout);
  if (!tools) {
    Log(LogLevel::kWarn, "mcp tools/list failed",
        {{"server", s->config.name}, {"error", tools.error().for_model}});
    return;
  }
  Register(s, *tools);
}

void McpManager::Register(const std::shared_ptr<ServerState>& s,
                          const std::vector<McpToolDef>& defs) {
  std::lock_guard reg(reg_mu_);
  {
    std::lock_guard lock(mu_);
    if (stop_) return;
  }
  const std::string& server = s->config.name;
  std::map<std::string, std::string> old_registered;
  {
    std::lock_guard l(s->mu);
    old_registered = s->registered;
  }
  std::map<std::string, std::string> registered;
  std::map<std::string, McpToolDef> tools;
  std::set<std::string> drifted, names;
  for (const McpToolDef& def : defs) {
    if (tools.contains(def.name)) continue;  // a duplicate in the listing: first wins
    std::string hash = def.DefinitionHash();
    bool is_drifted = false;
    auto rec = options_.hashes->Get(server, def.name);
    if (!rec) {
      Log(LogLevel::kError, "mcp: cannot read tool hash; tool disabled",
          {{"server", server}, {"tool", def.name}, {"error", rec.error().log_message()}});
      is_drifted = true;
    } else if (!*rec) {
      (void)options_.hashes->Put(server, def.name, {hash, "", HashStatus::kOk});
    } else if ((*rec)->hash != hash) {
      is_drifted = true;
      if ((*rec)->pending_hash != hash || (*rec)->status != HashStatus::kDrifted) {
        (void)options_.hashes->Put(server, def.name, {(*rec)->hash, hash, HashStatus::kDrifted});
        Log(LogLevel::kWarn, "mcp tool definition changed; tool disabled until approved",
            {{"server", server}, {"tool", def.name}});
      }
    } else if ((*rec)->status == HashStatus::kDrifted) {
      // The server went back to the approved definition.
      (void)options_.hashes->Put(server, def.name, {hash, "", HashStatus::kOk});
    }
    std::string name =
        UniqueBridgeToolName(s->config.tool_prefix, server, def.name, [&](const std::string& n) {
          if (names.contains(n)) return true;
          auto existing = registry_.Get(n);
          if (!existing) return false;
          auto* bridge = dynamic_cast<const McpBridgeTool*>(existing.get());
          return !(bridge && bridge->server_name() == server && bridge->tool_name() == def.name);
        });
    names.insert(name);
    registry_.Upsert(std::make_shared<McpBridgeTool>(s, name, def, is_drifted, options_.log));
    registered[def.name] = name;
    tools[def.name] = def;
    if (is_drifted) drifted.insert(def.name);
  }
  for (const auto& [tool, name] : old_registered) {
    if (!names.contains(name)) registry_.Unregister(name);
  }
  {
    std::lock_guard l(s->mu);
    s->registered = std::move(registered);
    s->tools = std::move(tools);
    s->drifted = std::move(drifted);
  }
}

Status McpManager::ApproveDrift(const std::string& server, const std::string& tool) {
  auto it = servers_.find(server);
  if (it == servers_.end())
    return Fail(ErrorCode::kNotFound, "unknown MCP server \"" + server + "\"");
  auto rec = options_.hashes->Get(server, tool);
  if (!rec) return std::unexpected(rec.error());
  if (!*rec || (*rec)->status != HashStatus::kDrifted || (*rec)->pending_hash.empty()) {
    return Fail(ErrorCode::kNotFound,
                "MCP tool \"" + tool + "\" on server \"" + server + "\" has no pending change");
  }
  if (auto st =
          options_.hashes->Put(server, tool, {(*rec)->pending_hash, "", HashStatus::kApproved});
      !st) {
    return st;
  }
  std::vector<McpToolDef> defs;
  {
    std::lock_guard l(it->second->mu);
    for (const auto& [name, def] : it->second->tools) defs.push_back(def);
  }
  Register(it->second, defs);
  Log(LogLevel::kInfo, "mcp tool definition change approved", {{"server", server}, {"tool", tool}});
  return {};
}

void McpManager::Refresh(const std::string& server) {
  auto it = servers_.find(server);
  if (it == servers_.end()) return;
  {
    std::lock_guard l(it->second->mu);
    it->second->refresh_requested = true;
  }
  Wake();
}

std::optional<McpServerStatus> McpManager::Server(const std::string& name) const {
  auto it = servers_.find(name);
  if (it == servers_.end()) return std::nullopt;
  const ServerState& s = *it->second;
  std::lock_guard l(s.mu);
  McpServerStatus st;
  st.name = name;
  st.phase = s.phase;
  st.attempts = s.attempts;
  st.last_error = s.last_error;
  for (const auto& [tool, reg_name] : s.registered) st.tools.push_back(reg_name);
  st.drifted.assign(s.drifted.begin(), s.drifted.end());
  if (s.client) {
    st.protocol_version = s.client->protocol_version();
    if (auto* stdio = dynamic_cast<StdioTransport*>(&s.client->transport())) st.pid = stdio->pid();
  }
  return st;
}

std::vector<McpServerStatus> McpManager::Servers() const {
  std::vector<McpServerStatus> out;
  for (const auto& [name, s] : servers_) out.push_back(*Server(name));
  return out;
}

}  // namespace clawtools::mcp
