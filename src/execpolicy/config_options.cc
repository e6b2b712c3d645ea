#include "execpolicy/config_options.h"

#include <algorithm>

namespace clawtools::execpolicy {
namespace {
void AddGroups(const Json& exec, AnalysisOptions& options) {
  if (!exec.is_object()) return;
  for (const auto& g : exec.value("deny_groups_disabled", Json::array())) {
    options.disabled_groups.push_back(g.get<std::string>());
  }
  for (const auto& g : exec.value("deny_groups_enabled", Json::array())) {
    options.enabled_groups.push_back(g.get<std::string>());
  }
}

}  // namespace

// tools.exec, then the agent's tools.exec: the agent's lists are added to the global ones,
// and a group the agent enables is no longer disabled (and the other way round).
std::optional<AnalysisOptions> AnalysisOptionsFromConfig(const Json& root, std::string_view agent) {
  AnalysisOptions options;
  if (root.contains("tools")) AddGroups(root["tools"].value("exec", Json()), options);
  if (agent.empty()) return options;
  const Json& list =
      root.contains("agents") ? root["agents"].value("list", Json::array()) : Json::array();
  for (const auto& a : list) {
    if (a.value("id", "") != agent) continue;
    AnalysisOptions own;
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


}  // namespace clawtools::execpolicy
