// clawtools check-command: what the exec command analysis decides, and why.
#include <iostream>

#include "cli/commands.h"
#include "config/config.h"
#include "core/json.h"
#include "execpolicy/command_analysis.h"

namespace clawtools::cli {
namespace {

void AddGroups(const Json& exec, execpolicy::AnalysisOptions& options) {
  if (!exec.is_object()) return;
  for (const auto& g : exec.value("deny_groups_disabled", Json::array())) {
    options.disabled_groups.push_back(g.get<std::string>());
  }
  for (const auto& g : exec.value("deny_groups_enabled", Json::array())) {
    options.enabled_groups.push_back(g.get<std::string>());
  }
}

// tools.exec, then the agent's tools.exec: the agent's lists are added to the global ones,
// and a group the agent enables is no longer disabled (and the other way round).
std::optional<execpolicy::AnalysisOptions> OptionsFor(const Config& config,
                                                      const std::string& agent) {
  execpolicy::AnalysisOptions options;
  const Json& root = config.root();
  if (root.contains("tools")) AddGroups(root["tools"].value("exec", Json()), options);
  if (agent.empty()) return options;
  const Json& list =
      root.contains("agents") ? root["agents"].value("list", Json::array()) : Json::array();
  for (const auto& a : list) {
    if (a.value("id", "") != agent) continue;
    execpolicy::AnalysisOptions own;
    if (a.contains("tools")) AddGroups(a["tools"].value("exec", Json()), own);
    std::erase_if(options.disabled_groups, [&](const std::string& g) {
      return std::find(own.enabled_groups.begin(), own.enabled_groups.end(), g) !=
             own.enabled_groups.end();
    });
    std::erase_if(options.enabled_groups, [&](const std::string& g) {
      return std::find(own.disabled_groups.begin(), own.disabled_groups.end(), g) !=
             own.disabled_groups.end();
    });
    options.disabled_groups.insert(options.disabled_groups.end(), own.disabled_groups.begin(),
                                   own.disabled_groups.end());
    options.enabled_groups.insert(options.enabled_groups.end(), own.enabled_groups.begin(),
                                  own.enabled_groups.end());
    return options;
  }
  return std::nullopt;
}

}  // namespace

int RunCheckCommand(const CheckCommandFlags& flags) {
  execpolicy::AnalysisOptions options;
  if (!flags.config.empty()) {
    auto config = Config::LoadFile(flags.config);
    if (!config) {
      std::cerr << "clawtools check-command: " << config.error().log_message() << "\n";
      return kExitFailure;
    }
    auto o = OptionsFor(*config, flags.agent);
    if (!o) {
      std::cerr << "clawtools check-command: no agent '" << flags.agent << "' in " << flags.config
                << "\n";
      return kExitUsage;
    }
    options = std::move(*o);
  } else if (!flags.agent.empty()) {
    std::cerr << "clawtools check-command: --agent needs --config\n";
    return kExitUsage;
  }
  const execpolicy::Analysis a = execpolicy::AnalyzeCommand(flags.command, options);
  Json commands = Json::array();
  for (const auto& c : a.commands) commands.push_back(c.argv);
  Json out = {{"decision", execpolicy::DecisionName(a.decision)},
              {"rule", a.rule.empty() ? Json() : Json(a.rule)},
              {"reason", a.reason},
              {"matched", a.matched},
              {"commands", std::move(commands)}};
  std::cout << out.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
  return kExitOk;
}

}  // namespace clawtools::cli
