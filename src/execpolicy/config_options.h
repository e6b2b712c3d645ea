// AnalysisOptions from the config file: tools.exec.{deny_groups_disabled, deny_groups_enabled},
// then the agent's agents.list[].tools.exec lists added on top; where the agent and the global
// lists disagree about a group, the agent wins.
#pragma once

#include <optional>
#include <string_view>

#include "core/json.h"
#include "execpolicy/command_analysis.h"

namespace clawtools::execpolicy {

// nullopt when `agent_id` is not empty and names no agent of agents.list[] (the global options
// apply to such an agent at run time; the CLI reports it as a usage error).
std::optional<AnalysisOptions> AnalysisOptionsFromConfig(const Json& config_root,
                                                         std::string_view agent_id);

}  // namespace clawtools::execpolicy
