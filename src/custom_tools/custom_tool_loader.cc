#include "custom_tools/custom_tool_loader.h"

namespace clawtools::custom_tools {

CustomToolLoader::CustomToolLoader(std::shared_ptr<const CustomToolStore> store, Registry& global,
                                   std::shared_ptr<const CommandLauncher> launcher,
                                   std::shared_ptr<Scrubber> scrubber)
    : store_(std::move(store)),
      global_(global),
      launcher_(std::move(launcher)),
      scrubber_(std::move(scrubber)) {}

bool CustomToolLoader::IsBuiltin(std::string_view name) const {
  std::lock_guard lock(mu_);
  return !global_names_.contains(name) && global_.Get(name) != nullptr;
}

Expected<std::vector<std::string>> CustomToolLoader::Reload() {
  std::lock_guard reload(reload_mu_);
  auto defs = store_->List();
  if (!defs) return std::unexpected(defs.error());

  std::vector<std::string> warnings;
  std::vector<ToolPtr> global_tools;
  std::map<std::string, std::vector<ToolPtr>, std::less<>> agent_tools;
  for (const CustomToolDef& def : *defs) {
    if (!def.enabled) continue;
    if (IsBuiltin(def.name)) {
      warnings.push_back("custom tool '" + def.name + "' skipped: a built-in tool has that name");
      continue;
    }
    auto env = store_->DecryptEnv(def);
    if (!env) {
      warnings.push_back("custom tool '" + def.name + "' skipped: " + env.error().for_model);
      continue;
    }
    // Before the tool is reachable, so no output of it can slip past the scrubber.
    if (scrubber_)
      for (const auto& [k, v] : *env) scrubber_->AddSecret(v);
    auto tool = CustomTool::Create(def, std::move(*env), launcher_);
    if (!tool) {
      warnings.push_back("custom tool '" + def.name + "' skipped: " + tool.error().for_model);
      continue;
    }
    if (def.agent_id)
      agent_tools[*def.agent_id].push_back(std::move(*tool));
    else
      global_tools.push_back(std::move(*tool));
  }

  std::lock_guard lock(mu_);
  // Upsert first, then drop the names that went away: a concurrent call never misses a tool
  // that exists both before and after.
  std::set<std::string, std::less<>> names;
  for (const ToolPtr& t : global_tools) {
    global_.Upsert(t);
    names.insert(t->name());
  }
  for (const std::string& old : global_names_)
    if (!names.contains(old)) global_.Unregister(old);
  global_names_ = std::move(names);
  agent_tools_ = std::move(agent_tools);
  resolutions_.clear();
  warnings_ = warnings;
  return warnings;
}

std::shared_ptr<const Registry> CustomToolLoader::ResolveForAgent(std::string_view agent_id) {
  std::lock_guard lock(mu_);
  auto tools = agent_tools_.find(agent_id);
  if (tools == agent_tools_.end()) {
    // Aliasing constructor with no owner: the global registry is owned elsewhere.
    return std::shared_ptr<const Registry>(std::shared_ptr<const Registry>(), &global_);
  }
  const uint64_t generation = global_.generation();
  auto it = resolutions_.find(agent_id);
  if (it != resolutions_.end() && it->second.global_generation == generation)
    return it->second.registry;
  std::shared_ptr<Registry> clone = global_.Clone();
  for (const ToolPtr& t : tools->second) {
    // A built-in registered after the last reload still wins.
    if (!global_names_.contains(t->name()) && global_.Get(t->name()) != nullptr) continue;
    clone->Upsert(t);
  }
  resolutions_[std::string(agent_id)] = {generation, clone};
  return clone;
}

void CustomToolLoader::Subscribe(EventNotifier& notifier) {
  notifier.Subscribe([this] { (void)Reload(); });
}

std::vector<std::string> CustomToolLoader::last_warnings() const {
  std::lock_guard lock(mu_);
  return warnings_;
}

}  // namespace clawtools::custom_tools
