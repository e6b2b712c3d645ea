#include "policy/policy_config.h"

#include <algorithm>
#include <set>

#include "policy/name_match.h"
#include "policy/tool_groups.h"

namespace clawtools {
namespace {

using policy::EditDistance;
using policy::GlobMatch;
using policy::IsGlob;

std::string Quote(std::string_view s) {
  return "\"" + std::string(s) + "\"";
}

Status ParseList(const Json& obj, const char* key, const std::string& path,
                 std::vector<std::string>* out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return {};
  const std::string where = path + "." + key;
  if (!it->is_array()) return Fail(ErrorCode::kInvalidArgument, where + ": must be an array");
  for (size_t i = 0; i < it->size(); ++i) {
    const Json& v = (*it)[i];
    if (!v.is_string()) {
      return Fail(ErrorCode::kInvalidArgument,
                  where + "[" + std::to_string(i) + "]: must be a string");
    }
    out->push_back(v.get<std::string>());
  }
  return {};
}

Expected<PolicySpec> ParseSpec(const Json& obj, const std::string& path) {
  if (!obj.is_object()) return Fail(ErrorCode::kInvalidArgument, path + ": must be an object");
  PolicySpec spec;
  if (auto it = obj.find("profile"); it != obj.end() && !it->is_null()) {
    if (!it->is_string()) {
      return Fail(ErrorCode::kInvalidArgument, path + ".profile: must be a string");
    }
    spec.profile = it->get<std::string>();
  }
  for (auto [key, list] : {std::pair{"allow", &spec.allow}, std::pair{"deny", &spec.deny},
                           std::pair{"alsoAllow", &spec.also_allow}}) {
    if (auto st = ParseList(obj, key, path, list); !st) return std::unexpected(st.error());
  }
  return spec;
}

std::string Suggest(std::string_view name) {
  std::string best;
  size_t best_d = 3;
  for (const std::string& known : ToolGroups::KnownToolNames()) {
    size_t d = EditDistance(name, known, 2);
    if (d < best_d) best_d = d, best = known;
  }
  return best.empty() ? "" : "; did you mean " + Quote(best) + "?";
}

std::string KnownGroups() {
  std::string out;
  for (const std::string& g : ToolGroups::BuiltinNames()) out += "group:" + g + ", ";
  return out + "group:mcp, group:mcp:<server>";
}

Status CheckProfile(const std::string& profile, const std::string& path) {
  if (profile.empty() || std::ranges::find(kProfiles, profile) != std::end(kProfiles)) return {};
  return Fail(ErrorCode::kInvalidArgument, path + ": unknown profile " + Quote(profile) +
                                               " (known: full, coding, messaging, minimal)");
}

Status CheckList(const std::vector<std::string>& list, const std::string& path,
                 std::vector<std::string>* warnings) {
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string& e = list[i];
    const std::string where = path + "[" + std::to_string(i) + "]";
    if (e.empty()) return Fail(ErrorCode::kInvalidArgument, where + ": empty entry");
    if (e.starts_with(kGroupPrefix)) {
      std::string_view group = std::string_view(e).substr(kGroupPrefix.size());
      if (!ToolGroups::Builtin(group) && !ToolGroups::IsDynamicName(group)) {
        return Fail(ErrorCode::kInvalidArgument,
                    where + ": unknown group " + Quote(e) + " (known: " + KnownGroups() + ")");
      }
    } else if (!IsGlob(e) && !ToolGroups::IsKnownToolName(e) && warnings) {
      warnings->push_back(where + ": unknown tool " + Quote(e) + Suggest(e) +
                          " (kept: it matches only if an MCP or custom tool registers that name)");
    }
  }
  return {};
}

Status CheckSpec(const PolicySpec& spec, const std::string& path,
                 std::vector<std::string>* warnings) {
  if (auto st = CheckProfile(spec.profile, path + ".profile"); !st) return st;
  for (auto [key, list] : {std::pair{"allow", &spec.allow}, std::pair{"deny", &spec.deny},
                           std::pair{"alsoAllow", &spec.also_allow}}) {
    if (auto st = CheckList(*list, path + "." + key, warnings); !st) return st;
  }
  return {};
}

Status CheckScope(const ScopePolicy& scope, std::vector<std::string>* warnings) {
  if (auto st = CheckSpec(scope.base, scope.origin, warnings); !st) return st;
  for (const auto& [provider, spec] : scope.by_provider) {
    if (auto st = CheckSpec(spec, scope.origin + ".byProvider." + provider, warnings); !st) {
      return st;
    }
  }
  return {};
}

// One deny or alsoAllow list with the provider it applies to ("" = every provider).
struct ListRef {
  const std::vector<std::string>* list;
  std::string path;
  std::string provider;
  bool from_focus;  // belongs to the scope being validated
};

void CollectLists(const ScopePolicy& scope, bool focus, std::vector<ListRef>* deny,
                  std::vector<ListRef>* also) {
  deny->push_back({&scope.base.deny, scope.origin + ".deny", "", focus});
  also->push_back({&scope.base.also_allow, scope.origin + ".alsoAllow", "", focus});
  for (const auto& [provider, spec] : scope.by_provider) {
    std::string p = scope.origin + ".byProvider." + provider;
    deny->push_back({&spec.deny, p + ".deny", provider, focus});
    also->push_back({&spec.also_allow, p + ".alsoAllow", provider, focus});
  }
}

// Concrete names an entry stands for, as far as config alone can tell: a built-in group's
// members, or the entry itself (a tool name, alias or dynamic group).
std::vector<std::string_view> Concrete(const std::string& entry) {
  if (entry.starts_with(kGroupPrefix)) {
    if (const auto* members = ToolGroups::Builtin(entry.substr(kGroupPrefix.size()))) {
      return {members->begin(), members->end()};
    }
  }
  return {entry};
}

bool Overlaps(const std::string& a, const std::string& b) {
  if (a == b) return true;
  if (IsGlob(a) && IsGlob(b)) return false;  // undecidable cheaply; no false alarms
  for (std::string_view x : Concrete(a)) {
    for (std::string_view y : Concrete(b)) {
      if (x == y || (IsGlob(x) && GlobMatch(x, y)) || (IsGlob(y) && GlobMatch(y, x))) return true;
    }
  }
  return false;
}

void WarnReAdds(const std::vector<ListRef>& deny, const std::vector<ListRef>& also,
                std::vector<std::string>* warnings) {
  for (const ListRef& a : also) {
    for (const ListRef& d : deny) {
      if (!a.from_focus && !d.from_focus) continue;
      if (!a.provider.empty() && !d.provider.empty() && a.provider != d.provider) continue;
      for (size_t i = 0; i < a.list->size(); ++i) {
        for (size_t j = 0; j < d.list->size(); ++j) {
          if (!Overlaps((*a.list)[i], (*d.list)[j])) continue;
          warnings->push_back(a.path + "[" + std::to_string(i) + "] " + Quote((*a.list)[i]) +
                              " re-adds what " + d.path + "[" + std::to_string(j) + "] " +
                              Quote((*d.list)[j]) + " removes (alsoAllow runs after deny)");
        }
      }
    }
  }
}

// Parses without validating, so a whole config is validated exactly once (no duplicate warnings).
Expected<ScopePolicy> ParseScope(const Json& tools, std::string origin, bool strict,
                                 std::vector<std::string>* warnings) {
  ScopePolicy scope;
  scope.origin = std::move(origin);
  auto base = ParseSpec(tools, scope.origin);
  if (!base) return std::unexpected(base.error());
  scope.base = std::move(*base);
  if (auto it = tools.find("byProvider"); it != tools.end() && !it->is_null()) {
    if (!it->is_object()) {
      return Fail(ErrorCode::kInvalidArgument, scope.origin + ".byProvider: must be an object");
    }
    for (const auto& [provider, value] : it->items()) {
      auto spec = ParseSpec(value, scope.origin + ".byProvider." + provider);
      if (!spec) return std::unexpected(spec.error());
      scope.by_provider.emplace(provider, std::move(*spec));
    }
  }
  if (strict && warnings) {
    static const std::set<std::string, std::less<>> kKeys = {
        "profile", "allow", "deny", "alsoAllow", "byProvider", "toolCallPrefix"};
    for (const auto& [key, value] : tools.items()) {
      if (!kKeys.contains(key)) {
        warnings->push_back(scope.origin + "." + key + ": unknown key (ignored by the policy)");
      }
    }
  }
  return scope;
}

}  // namespace

Expected<ScopePolicy> ScopePolicy::FromJson(const Json& tools, std::string origin, bool strict,
                                            std::vector<std::string>* warnings) {
  auto scope = ParseScope(tools, std::move(origin), strict, warnings);
  if (!scope) return scope;
  if (auto st = ValidateScope(*scope, nullptr, warnings); !st) return std::unexpected(st.error());
  return scope;
}

Status ValidateScope(const ScopePolicy& scope, const ScopePolicy* global,
                     std::vector<std::string>* warnings) {
  if (auto st = CheckScope(scope, warnings); !st) return st;
  if (!warnings) return {};
  std::vector<ListRef> deny, also;
  CollectLists(scope, true, &deny, &also);
  if (global && global != &scope) CollectLists(*global, false, &deny, &also);
  WarnReAdds(deny, also, warnings);
  return {};
}

Status PolicyConfig::Validate(std::vector<std::string>* warnings) const {
  if (auto st = ValidateScope(global, nullptr, warnings); !st) return st;
  for (const auto& [id, scope] : agents) {
    if (auto st = ValidateScope(scope, &global, warnings); !st) return st;
  }
  if (max_spawn_depth < 1) {
    return Fail(ErrorCode::kInvalidArgument,
                "agents.defaults.subagents.maxSpawnDepth: must be at least 1");
  }
  return {};
}

Expected<PolicyConfig> PolicyConfig::FromJson(const Json& root,
                                              std::vector<std::string>* warnings) {
  PolicyConfig cfg;
  if (!root.is_object()) return Fail(ErrorCode::kInvalidArgument, "config: must be an object");
  if (auto it = root.find("tools"); it != root.end() && !it->is_null()) {
    auto global = ParseScope(*it, "tools", false, warnings);
    if (!global) return std::unexpected(global.error());
    cfg.global = std::move(*global);
  }
  auto agents = root.find("agents");
  if (agents != root.end() && !agents->is_null()) {
    if (!agents->is_object()) {
      return Fail(ErrorCode::kInvalidArgument, "agents: must be an object");
    }
    const Json* depth = nullptr;
    if (auto d = agents->find("defaults"); d != agents->end() && d->is_object()) {
      if (auto s = d->find("subagents"); s != d->end() && s->is_object()) {
        if (auto m = s->find("maxSpawnDepth"); m != s->end() && !m->is_null()) depth = &*m;
      }
    }
    if (depth) {
      if (!depth->is_number_integer()) {
        return Fail(ErrorCode::kInvalidArgument,
                    "agents.defaults.subagents.maxSpawnDepth: must be an integer");
      }
      cfg.max_spawn_depth = depth->get<int>();
    }
    if (auto list = agents->find("list"); list != agents->end() && !list->is_null()) {
      if (!list->is_array()) {
        return Fail(ErrorCode::kInvalidArgument, "agents.list: must be an array");
      }
      std::set<std::string, std::less<>> ids;
      for (size_t i = 0; i < list->size(); ++i) {
        const Json& agent = (*list)[i];
        const std::string path = "agents.list[" + std::to_string(i) + "]";
        auto id = agent.find("id");
        if (!agent.is_object() || id == agent.end() || !id->is_string() ||
            id->get<std::string>().empty()) {
          return Fail(ErrorCode::kInvalidArgument, path + ".id: must be a non-empty string");
        }
        if (!ids.insert(id->get<std::string>()).second) {
          return Fail(ErrorCode::kInvalidArgument,
                      path + ".id: duplicate agent id " + Quote(id->get<std::string>()));
        }
        auto tools = agent.find("tools");
        if (tools == agent.end() || tools->is_null()) continue;
        auto scope = ParseScope(*tools, path + ".tools", true, warnings);
        if (!scope) return std::unexpected(scope.error());
        cfg.agents.emplace(id->get<std::string>(), std::move(*scope));
      }
    }
  }
  if (auto st = cfg.Validate(warnings); !st) return std::unexpected(st.error());
  return cfg;
}

}  // namespace clawtools
