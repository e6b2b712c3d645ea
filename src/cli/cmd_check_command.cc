// clawtools check-command: what the exec command analysis decides, and why.
#include <iostream>

#include "cli/commands.h"
#include "config/config.h"
#include "core/json.h"
#include "execpolicy/command_analysis.h"
#include "execpolicy/config_options.h"

namespace clawtools::cli {

int RunCheckCommand(const CheckCommandFlags& flags) {
  execpolicy::AnalysisOptions options;
  if (!flags.config.empty()) {
    auto config = Config::LoadFile(flags.config);
    if (!config) {
      std::cerr << "clawtools check-command: " << config.error().log_message() << "\n";
      return kExitFailure;
    }
    auto o = execpolicy::AnalysisOptionsFromConfig(config->root(), flags.agent);
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
