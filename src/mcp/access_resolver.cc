#include "mcp/access_resolver.h"

#include <algorithm>

#include "mcp/access_store.h"
#include "mcp/access_transport.h"

namespace clawtools::mcp {

using Clock = std::chrono::steady_clock;

struct AgentMcpResolver::Entry {
  std::string signature;  // the grants and base registry when built; a change rebuilds
  Clock::time_point checked, last_used;
  std::shared_ptr<const Registry> base;
  std::shared_ptr<Registry> registry;   // null: the pair uses the base registry
  std::unique_ptr<McpManager> manager;  // declared last: stops before the registry goes

  ~Entry() {
    if (manager) manager->Shutdown();
  }
};

namespace {

std::string Signature(const std::vector<AccessibleServer>& servers, const Registry& base) {
  Json sig = Json::array({reinterpret_cast<uintptr_t>(&base), base.generation()});
  for (const auto& s : servers) {
    Json env = s.config.env, headers = s.config.headers;
    sig.push_back({s.config.name, s.config.command, s.config.args, s.config.url, env, headers,
                   s.config.timeout.count(), s.agent_filter.ToJson(),
                   s.user_filter ? s.user_filter->ToJson() : Json()});
  }
  return sig.dump();
}

}  // namespace

AgentMcpResolver::AgentMcpResolver(store::Store& store, AgentResolverOptions options)
    : store_(store), options_(std::move(options)) {}

AgentMcpResolver::~AgentMcpResolver() = default;

std::shared_ptr<AgentMcpResolver::Entry> AgentMcpResolver::Build(
    const std::string& agent, const std::string& user, std::string signature,
    std::vector<AccessibleServer> servers, const std::shared_ptr<const Registry>& base) {
  auto e = std::make_shared<Entry>();
  e->signature = std::move(signature);
  e->base = base;
  if (servers.empty()) return e;
  e->registry = std::shared_ptr<Registry>(base->Clone().release());
  McpManagerOptions mopts = options_.manager;
  auto inner = mopts.transport_factory;
  std::map<std::string, AccessibleServer> by_name;
  std::vector<McpServerConfig> configs;
  for (auto& s : servers) {
    configs.push_back(s.config);
    by_name.emplace(s.config.name, std::move(s));
  }
  mopts.transport_factory = [inner, by_name, log = mopts.log, timeout = mopts.connect_timeout](
                                const McpServerConfig& c) -> Expected<std::unique_ptr<Transport>> {
    auto t = inner ? inner(c) : MakeTransport(c, log, timeout);
    if (!t) return t;
    const AccessibleServer& grant = by_name.at(c.name);
    return std::unique_ptr<Transport>(std::make_unique<FilteredTransport>(
        std::move(*t), [grant](std::string_view tool) { return grant.Allows(tool); }));
  };
  if (mopts.log) {
    mopts.log->Event(LogLevel::kInfo, "mcp agent servers",
                     {{"agent", agent}, {"user", user}, {"servers", configs.size()}});
  }
  e->manager = std::make_unique<McpManager>(*e->registry, std::move(mopts));
  e->manager->Start(std::move(configs));
  return e;
}

std::shared_ptr<const Registry> AgentMcpResolver::RegistryFor(
    const std::string& agent, const std::string& user, std::shared_ptr<const Registry> base) {
  auto pick = [&](const std::shared_ptr<Entry>& e) {
    return e->registry ? std::shared_ptr<const Registry>(e->registry) : base;
  };
  auto now = Clock::now();
  auto key = std::make_pair(agent, user);
  // Dropped entries stop their servers: destroyed after the lock is released.
  std::shared_ptr<Entry> stale;
  std::vector<std::shared_ptr<Entry>> expired;
  {
    std::lock_guard lock(mu_);
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (now - it->second->last_used > options_.idle) {
        expired.push_back(std::move(it->second));
        it = entries_.erase(it);
      } else {
        ++it;
      }
    }
    if (auto it = entries_.find(key); it != entries_.end() && it->second->base == base &&
                                      now - it->second->checked < options_.recheck) {
      it->second->last_used = now;
      return pick(it->second);
    }
  }
  auto servers = McpAccessStore(store_).LoadForAgent(agent, user);
  if (!servers) {
    if (options_.manager.log) {
      options_.manager.log->Event(LogLevel::kWarn, "mcp grants unavailable",
                                  {{"error", servers.error().log_message()}});
    }
    return base;
  }
  std::string sig = Signature(*servers, *base);
  {
    std::lock_guard lock(mu_);
    if (auto it = entries_.find(key); it != entries_.end() && it->second->signature == sig) {
      it->second->checked = it->second->last_used = now;
      return pick(it->second);
    }
  }
  auto fresh = Build(agent, user, std::move(sig), std::move(*servers), base);
  fresh->checked = fresh->last_used = now;
  std::shared_ptr<Entry> lru_victim;
  std::lock_guard lock(mu_);
  auto& slot = entries_[key];
  stale = std::exchange(slot, fresh);
  if (entries_.size() > options_.max_entries) {
    auto lru =
        std::ranges::min_element(entries_, {}, [](const auto& kv) { return kv.second->last_used; });
    if (lru->first != key) {
      lru_victim = std::move(lru->second);
      entries_.erase(lru);
    }
  }
  return pick(fresh);
}

void AgentMcpResolver::Invalidate() {
  decltype(entries_) dropped;
  std::lock_guard lock(mu_);
  dropped.swap(entries_);
}

}  // namespace clawtools::mcp
