#include "runtime/runtime.h"

#include <filesystem>

#include "approval/approval_gate.h"
#include "approval/approval_manager.h"
#include "approval/event_bus.h"
#include "core/provider_defs.h"
#include "core/rate_limit_filter.h"
#include "core/scrub_filter.h"
#include "crypto/aes_gcm.h"
#include "custom_tools/custom_tool_loader.h"
#include "custom_tools/custom_tool_store.h"
#include "custom_tools/event_notifier.h"
#include "execpolicy/config_options.h"
#include "mcp/access_resolver.h"
#include "mcp/manager.h"
#include "mcp/server_store.h"
#include "policy/policy_engine.h"
#include "policy/policy_filter.h"
#include "runtime/builtin_tools.h"
#include "sandbox/sandbox.h"
#include "store/agent_store.h"
#include "store/context_file_router.h"
#include "store/memory_router.h"
#include "store/memory_store.h"
#include "store/store.h"
#include "tools/runtime/exec_settings.h"
#include "tools/runtime/runtime_tools.h"
#include "version.h"

extern char** environ;

namespace clawtools {
namespace {

bool CredentialLikeEnvName(std::string_view name) {
  for (const char* needle :
       {"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "DATABASE_URL", "DSN"}) {
    if (name.find(needle) != std::string_view::npos) return true;
  }
  return false;
}

// The gateway's own secrets (API keys in its environment, configured tokens) are redacted from
// every tool output, whatever form a tool prints them in.
void RegisterKnownSecrets(const Config& config, Scrubber& scrubber) {
  for (const auto& s : config.secret_values()) scrubber.AddSecret(s);
  if (auto it = config.root().find("tools"); it != config.root().end()) {
    for (const auto& v : it->value("scrub_values", Json::array()))
      scrubber.AddSecret(v.get<std::string>());
  }
  for (char** e = environ; e && *e; ++e) {
    std::string_view kv(*e);
    auto eq = kv.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view name = kv.substr(0, eq), value = kv.substr(eq + 1);
    if (value.size() >= 8 && CredentialLikeEnvName(name)) scrubber.AddSecret(value);
  }
}

std::vector<RateRule> RateRules(const Config& config) {
  std::vector<RateRule> rules;
  const Json& tools = config.root().value("tools", Json::object());
  if (auto per_hour = tools.value("rate_limit_per_hour", 0.0); per_hour > 0) {
    rules.push_back({RateScope::kSession, RateLimit::PerHour(per_hour)});
  }
  for (const auto& r : tools.value("rate_limits", Json::array())) {
    RateRule rule;
    rule.scope = ParseRateScope(r.value("scope", "session")).value_or(RateScope::kSession);
    double per_second = r.value("per_second", 0.0) + r.value("per_minute", 0.0) / 60.0 +
                        r.value("per_hour", 0.0) / 3600.0;
    rule.limit.per_second = per_second;
    rule.limit.burst = r.value("burst", std::max(1.0, per_second));
    rule.limit.max_keys = r.value("max_keys", size_t{100000});
    rules.push_back(rule);
  }
  return rules;
}

// A sandbox self-test costs ~100 ms: run it only when some agent's sandbox mode is not off.
bool UsesSandbox(const Json& root) {
  auto mode_on = [](const Json& sandbox) {
    return sandbox.is_object() && sandbox.value("mode", "off") != "off";
  };
  if (mode_on(root.value(Json::json_pointer("/agents/defaults/sandbox"), Json()))) return true;
  for (const auto& a : root.value(Json::json_pointer("/agents/list"), Json::array())) {
    if (mode_on(a.value("sandbox", Json()))) return true;
  }
  return false;
}

// tools.exec deny-group switches, then the agent's (the agent wins where they disagree).
AnalysisOptionsFor ExecAnalysisOptionsFor(const Json& root) {
  return [root](std::string_view agent_id) {
    return execpolicy::AnalysisOptionsFromConfig(root, agent_id)
        .value_or(execpolicy::AnalysisOptionsFromConfig(root, "").value_or(
            execpolicy::AnalysisOptions{}));
  };
}

}  // namespace

Runtime::~Runtime() = default;

Expected<std::unique_ptr<Runtime>> Runtime::Create(const RuntimeOptions& options) {
  std::unique_ptr<Runtime> rt(new Runtime());

  // Defaults go through Parse too, so the environment overlay applies without a file.
  auto loaded = options.config_path.empty() ? Config::Parse("{}", "defaults")
                                            : Config::LoadFile(options.config_path);
  if (!loaded) return std::unexpected(loaded.error());
  Config config = std::move(*loaded);
  if (!options.workspace.empty()) config.SetOverride("/workspace", options.workspace);
  if (!options.db_url.empty()) config.SetOverride("/db", options.db_url);

  LogLevel level = options.log_level;
  if (auto l = config.root().find("log"); l != config.root().end() && l->contains("level")) {
    level = ParseLogLevel((*l)["level"].get<std::string>()).value_or(level);
  }
  rt->log_ = std::make_shared<CallLog>(level);

  std::error_code ec;
  rt->workspace_ = std::filesystem::absolute(config.workspace(), ec).lexically_normal().string();
  if (!rt->workspace_.empty() && rt->workspace_.size() > 1 && rt->workspace_.back() == '/') {
    rt->workspace_.pop_back();
  }
  std::filesystem::create_directories(rt->workspace_, ec);
  if (ec) {
    return Fail(ErrorCode::kUnavailable,
                "cannot create workspace " + rt->workspace_ + ": " + ec.message());
  }

  rt->scrubber_ = std::make_shared<Scrubber>();
  RegisterKnownSecrets(config, *rt->scrubber_);
  std::weak_ptr<Scrubber> weak = rt->scrubber_;
  rt->log_->set_redactor([weak](std::string_view s) {
    auto sc = weak.lock();
    return sc ? sc->Scrub(s) : std::string(s);
  });

  RegistryOptions ropts;
  ropts.workspace = rt->workspace_;
  const Json& tools = config.root().value("tools", Json::object());
  if (auto t = tools.value("timeout_sec", 0); t > 0)
    ropts.default_timeout = std::chrono::seconds(t);
  rt->registry_ = std::make_unique<Registry>(ropts, rt->log_);

  std::vector<std::string> warnings;
  auto policy = PolicyConfig::FromJson(config.root(), &warnings);
  if (!policy) return std::unexpected(policy.error());
  for (auto& w : warnings) config.AddWarning(std::move(w));
  rt->policy_ = std::make_shared<PolicyEngine>(std::move(*policy));

  // The chain, in order: policy (a refused call costs nothing else), rate limit, scrubbing.
  rt->registry_->AddFilter(std::make_shared<PolicyFilter>(rt->policy_, rt->registry_.get()));
  if (auto rules = RateRules(config); !rules.empty()) {
    rt->registry_->AddFilter(std::make_shared<RateLimitFilter>(std::move(rules)));
  }
  if (config.scrub_credentials()) {
    rt->registry_->AddFilter(std::make_shared<ScrubFilter>(rt->scrubber_));
  }

  const std::string db_url = config.db_url();
  if (!db_url.starts_with("postgres") && db_url.find('=') == std::string::npos &&
      db_url != ":memory:") {
    auto parent = std::filesystem::path(db_url.starts_with("sqlite:") ? db_url.substr(7) : db_url)
                      .parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  }
  auto opened = store::OpenStore(db_url);
  if (!opened) return std::unexpected(opened.error());
  rt->store_ = std::move(*opened);
  rt->memory_ = std::make_unique<store::MemoryStore>(*rt->store_);
  std::map<std::string, store::AgentType> agent_types;
  for (const auto& a : config.root().value(Json::json_pointer("/agents/list"), Json::array())) {
    if (auto t = store::ParseAgentType(a.value("type", "open"))) agent_types[a["id"]] = *t;
  }
  std::vector<std::shared_ptr<const VirtualFileRouter>> routers = {
      std::make_shared<store::ContextFileRouter>(*rt->store_, std::move(agent_types)),
      std::make_shared<store::MemoryRouter>(*rt->memory_)};

  if (auto s = RegisterBuiltinTools(config, rt->workspace_, std::move(routers), *rt->registry_);
      !s) {
    return std::unexpected(s.error());
  }

  // Shell tools: command analysis + approvals gate every command; the sandbox runs them where
  // the agent's policy says.
  rt->events_ = std::make_shared<EventBus>();
  auto approvals =
      MakeApprovalManager(config, *rt->store_, rt->events_, [weak](std::string_view s) {
        auto sc = weak.lock();
        return sc ? sc->Scrub(s) : std::string(s);
      });
  if (!approvals) return std::unexpected(approvals.error());
  rt->approvals_ = std::move(*approvals);
  auto gate =
      MakeApprovalGate(rt->approvals_, ExecAnalysisOptionsFor(config.root()), options.approver);
  if (UsesSandbox(config.root())) {
    std::vector<std::string> hide = {std::filesystem::path(db_url).parent_path().string()};
    if (!options.config_path.empty()) {
      hide.push_back(std::filesystem::absolute(options.config_path, ec).parent_path().string());
    }
    std::erase_if(
        hide, [&](const std::string& p) { return p.empty() || p == "/" || p == rt->workspace_; });
    rt->sandbox_ = sandbox::Sandbox::Create(
        SandboxOptionsFrom(config.root(), sandbox::DefaultInitHelperPath(), std::move(hide)));
    rt->log_->Event(LogLevel::kInfo, "sandbox self-test", rt->sandbox_->capabilities().ToJson());
  }
  RuntimeTools shell = MakeRuntimeTools(config.root(), gate, rt->sandbox_);
  rt->processes_ = shell.processes;
  for (auto& tool : {shell.exec, shell.process}) {
    if (auto s = rt->registry_->Register(tool); !s) return std::unexpected(s.error());
  }
  for (const char* alias : {"bash", "Bash"}) (void)rt->registry_->RegisterAlias(alias, "exec");

  // Custom tools: env values encrypted at rest; the key is needed only to store or run them.
  auto key = crypto::LoadKey(config.root().value(
      Json::json_pointer("/tools/custom_tools/encryption_key_file"), std::string()));
  if (!key) return std::unexpected(key.error());
  rt->custom_store_ = std::make_shared<custom_tools::CustomToolStore>(*rt->store_, std::move(*key));
  rt->custom_loader_ = std::make_unique<custom_tools::CustomToolLoader>(
      rt->custom_store_, *rt->registry_, shell.launcher, rt->scrubber_);
  auto custom_warnings = rt->custom_loader_->Reload();
  if (!custom_warnings) return std::unexpected(custom_warnings.error());
  for (const auto& w : *custom_warnings) config.AddWarning(w);
  rt->notifier_ = std::make_unique<custom_tools::InProcessNotifier>();
  rt->custom_loader_->Subscribe(*rt->notifier_);

  rt->config_ = std::make_shared<const Config>(config);
  rt->ReloadAgentPolicies();  // logs its own warnings

  // MCP servers from the config and the store; a server that fails to start is retried in the
  // background and never stops the runtime from starting.
  // Config-file servers serve every agent; store servers only the (agent, user) pairs their
  // grants name (AgentMcpResolver), so one agent's servers never leak into another's tools.
  auto servers = mcp::LoadMcpServers(
      config.root().value(Json::json_pointer("/tools/mcp_servers"), Json()), nullptr);
  if (!servers) return std::unexpected(servers.error());
  mcp::McpManagerOptions mopts;
  mopts.log = rt->log_;
  mopts.client_info = {"clawtools", CLAWTOOLS_VERSION};
  mopts.hashes = std::make_shared<mcp::StoreToolHashes>(*rt->store_);
  rt->mcp_agents_ = std::make_unique<mcp::AgentMcpResolver>(
      *rt->store_, mcp::AgentResolverOptions{.manager = mopts});
  rt->mcp_ = std::make_unique<mcp::McpManager>(*rt->registry_, mopts);
  rt->mcp_->Start(std::move(*servers));

  for (const auto& w : config.warnings())
    rt->log_->Event(LogLevel::kWarn, "config", {{"warning", w}});
  rt->config_ = std::make_shared<const Config>(std::move(config));
  return rt;
}

Json Runtime::SandboxCapabilities() const {
  return sandbox_ ? sandbox_->capabilities().ToJson() : Json();
}

std::vector<std::string> Runtime::ReloadAgentPolicies() {
  std::vector<std::string> warnings;
  auto agents = store::AgentStore(*store_).List();
  if (!agents) {
    warnings.push_back("cannot read agent policies from the store: " +
                       agents.error().log_message());
    return warnings;
  }
  std::lock_guard lock(reload_mu_);
  std::map<std::string, std::string> seen;
  for (const auto& agent : *agents) {
    if (agent.tools_config.empty()) continue;
    seen[agent.id] = agent.tools_config;
    auto it = loaded_agent_policies_.find(agent.id);
    if (it != loaded_agent_policies_.end() && it->second == agent.tools_config) continue;
    const std::string origin = "store.tools_config[" + agent.id + "]";
    Json json = Json::parse(agent.tools_config, nullptr, false);
    Expected<ScopePolicy> scope = json.is_discarded()
                                      ? Fail(ErrorCode::kInvalidArgument, origin + ": invalid JSON")
                                      : ScopePolicy::FromJson(json, origin, true, &warnings);
    Status applied = scope ? policy_->SetAgentPolicy(agent.id, std::move(*scope), &warnings)
                           : Status(std::unexpected(scope.error()));
    if (!applied) {
      // A broken store entry must not leave the agent with a wider policy than configured:
      // it keeps what it had (the config file's lists, or the last good store entry).
      warnings.push_back(applied.error().log_message());
      seen.erase(agent.id);
      if (it != loaded_agent_policies_.end()) seen[agent.id] = it->second;
    }
  }
  // Agents whose store policy disappeared fall back to the config file's lists.
  const PolicyConfig from_file =
      PolicyConfig::FromJson(config_->root(), nullptr).value_or(PolicyConfig{});
  for (const auto& [id, _] : loaded_agent_policies_) {
    if (seen.contains(id)) continue;
    if (auto f = from_file.agents.find(id); f != from_file.agents.end()) {
      (void)policy_->SetAgentPolicy(id, f->second, nullptr);
    } else {
      policy_->RemoveAgentPolicy(id);
    }
  }
  loaded_agent_policies_ = std::move(seen);
  for (const auto& w : warnings) log_->Event(LogLevel::kWarn, "policy", {{"warning", w}});
  return warnings;
}

std::shared_ptr<const Registry> Runtime::RegistryFor(std::string_view agent_id,
                                                     std::string_view user_id) const {
  if (agent_id.empty()) return {std::shared_ptr<const Registry>(), registry_.get()};
  return mcp_agents_->RegistryFor(std::string(agent_id), std::string(user_id),
                                  custom_loader_->ResolveForAgent(agent_id));
}

void Runtime::ListenForCustomToolChanges() {
  auto notifier = custom_tools::MakeNotifier(config_->db_url(), *custom_store_);
  custom_loader_->Subscribe(*notifier);
  notifier_ = std::move(notifier);
}

CallOutcome Runtime::Call(const CallRequest& request) const {
  return RegistryFor(request.agent_id, request.user_id)->Execute(request);
}

namespace {

PolicyQuery ToPolicyQuery(const ToolQuery& q) {
  return PolicyQuery{q.agent_id, q.provider, q.subagent_depth, q.group_allow};
}

}  // namespace

// Aliases are accepted on calls but not offered as separate definitions: GoClaw sent up to 13
// duplicate definitions, which costs prompt tokens and confuses models.
Json Runtime::ToolDefinitions(const ToolQuery& query, DefinitionFormat format) const {
  Json defs = Json::array();
  auto registry = RegistryFor(query.agent_id, query.user_id);
  auto allowed = policy_->Allowed(*registry, ToPolicyQuery(query));
  for (const auto& name : *allowed) {
    auto tool = registry->Get(name);
    if (!tool) continue;
    defs.push_back(format == DefinitionFormat::kOpenAI ? OpenAIToolDef(*tool)
                                                       : AnthropicToolDef(*tool));
  }
  return defs;
}

Json Runtime::ExplainTools(const ToolQuery& query) const {
  Json out = Json::array();
  for (const auto& d :
       policy_->Explain(*RegistryFor(query.agent_id, query.user_id), ToPolicyQuery(query))) {
    out.push_back(d.ToJson());
  }
  return out;
}

}  // namespace clawtools
