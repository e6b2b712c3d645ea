#include "policy/policy_engine.h"

#include <algorithm>
#include <functional>
#include <mutex>
#include <unordered_map>

#include "policy/name_match.h"

namespace clawtools {

// Named (not anonymous) so PolicyEngine's nested types may hold these without
// -Wsubobject-linkage; nothing outside this file uses it.
namespace policy_impl {

using policy::AsciiLower;
using policy::GlobMatch;
using policy::IsGlob;

enum class EntryKind : uint8_t { kName, kGroup, kGlob, kNothing };

struct Entry {
  std::string text;
  EntryKind kind = EntryKind::kNothing;
  std::string group;                             // bare group name, for kGroup
  const ToolGroups::Members* builtin = nullptr;  // for a built-in group: resolved per universe
  bool prefix_glob = false;  // kGlob of the form "prefix*": a range search on sorted names
};

struct List {
  std::vector<Entry> entries;  // empty = the step is skipped
  PolicyStep step = PolicyStep::kNone;
  std::string source;
  std::string profile;  // for kProfile: the profile's name
  bool fold_case = false;
};

Entry CompileEntry(const std::string& text) {
  if (text.starts_with(kGroupPrefix)) {
    std::string bare = text.substr(kGroupPrefix.size());
    const ToolGroups::Members* builtin = ToolGroups::Builtin(bare);
    if (builtin || ToolGroups::IsDynamicName(bare)) {
      return {text, EntryKind::kGroup, std::move(bare), builtin};
    }
    return {text, EntryKind::kNothing, {}};
  }
  if (text.empty()) return {text, EntryKind::kNothing, {}};
  if (!IsGlob(text)) return {text, EntryKind::kName, {}};
  const bool prefix = text.find('*') == text.size() - 1;
  return {text, EntryKind::kGlob, {}, nullptr, prefix};
}

List CompileList(std::span<const std::string> entries, PolicyStep step, std::string source,
                 bool fold_case = false) {
  List list{.step = step, .source = std::move(source), .fold_case = fold_case};
  list.entries.reserve(entries.size());
  for (const std::string& e : entries) {
    list.entries.push_back(CompileEntry(fold_case ? AsciiLower(e) : e));
  }
  return list;
}

// The seed's profile table; nullopt for an unknown profile.
std::optional<std::vector<std::string>> ProfileEntries(const std::string& profile) {
  if (profile == "full") return std::vector<std::string>{};
  if (profile == "coding") {
    return std::vector<std::string>{"group:fs", "group:runtime", "group:sessions", "group:memory",
                                    "image"};
  }
  if (profile == "messaging") {
    return std::vector<std::string>{"group:messaging", "sessions_list", "sessions_history",
                                    "sessions_send", "session_status"};
  }
  if (profile == "minimal") return std::vector<std::string>{"session_status"};
  return std::nullopt;
}

struct CompiledSpec {
  std::optional<List> profile;  // set when the spec names a profile ("full" has no entries)
  List allow, deny, also_allow;
};

struct CompiledScope {
  CompiledSpec base;
  std::map<std::string, CompiledSpec, std::less<>> by_provider;
};

// level: 0 global, 1 global provider, 2 agent, 3 agent+provider; the PolicyStep enum lists
// each kind's four steps in that order.
CompiledSpec CompileSpec(const PolicySpec& spec, const std::string& path, int level) {
  auto step = [level](PolicyStep first) {
    return static_cast<PolicyStep>(static_cast<int>(first) + level);
  };
  CompiledSpec out;
  if (!spec.profile.empty()) {
    auto entries = ProfileEntries(spec.profile);
    out.profile = CompileList(entries.value_or(std::vector<std::string>{}), PolicyStep::kProfile,
                              path + ".profile");
    out.profile->profile = spec.profile;
    // An unknown profile (only in an unvalidated config) matches nothing: it fails closed
    // instead of GoClaw's silent "full".
    if (!entries) out.profile->entries.push_back({spec.profile, EntryKind::kNothing});
  }
  out.allow = CompileList(spec.allow, step(PolicyStep::kGlobalAllow), path + ".allow");
  out.deny = CompileList(spec.deny, step(PolicyStep::kGlobalDeny), path + ".deny");
  out.also_allow =
      CompileList(spec.also_allow, step(PolicyStep::kGlobalAlsoAllow), path + ".alsoAllow");
  return out;
}

CompiledScope CompileScope(const ScopePolicy& scope, int level) {
  CompiledScope out;
  out.base = CompileSpec(scope.base, scope.origin, level);
  for (const auto& [provider, spec] : scope.by_provider) {
    out.by_provider.emplace(provider,
                            CompileSpec(spec, scope.origin + ".byProvider." + provider, level + 1));
  }
  return out;
}

// The seed's section 6 lists (GoClaw subagent.go, the path actually used), plus "subagents"
// next to "subagent" since that is the tool's name here. Case-insensitive, as EqualFold.
const List& SubagentDenyList() {
  static const List list = [] {
    const std::vector<std::string> names = {"gateway",        "agents_list",  "whatsapp_login",
                                            "session_status", "cron",         "memory_search",
                                            "memory_get",     "sessions_send"};
    return CompileList(names, PolicyStep::kSubagentDeny, "subagent deny list", true);
  }();
  return list;
}

const List& LeafDenyList() {
  static const List list = [] {
    const std::vector<std::string> names = {"sessions_list", "sessions_history", "sessions_spawn",
                                            "spawn",         "subagent",         "subagents"};
    return CompileList(names, PolicyStep::kLeafDeny, "leaf subagent deny list", true);
  }();
  return list;
}

using AliasMap = std::map<std::string, std::string, std::less<>>;

// The registry's names, indexed for the pipeline. Built once per tool set and shared by every
// evaluation over it. Neither copyable nor movable: `index` holds views into the strings.
class Universe {
 public:
  explicit Universe(Registry::ToolSet tools) : names_(std::move(tools.names)) {
    const AliasMap& aliases = tools.aliases;
    index_.reserve(names_.size() + aliases.size());
    for (size_t i = 0; i < names_.size(); ++i) Add(names_[i], static_cast<uint32_t>(i));
    for (const auto& [alias, canonical] : aliases) {
      auto it = index_.find(canonical);
      if (it != index_.end()) aliases_.emplace_back(alias, it->second);
    }
    for (const auto& [alias, i] : aliases_) Add(alias, i);
    std::ranges::sort(folded_);
    for (const std::string& group : ToolGroups::BuiltinNames()) {
      const ToolGroups::Members* members = ToolGroups::Builtin(group);
      std::vector<uint32_t>& present = builtin_[members];
      for (const std::string& m : *members) {
        if (int i = Find(m); i >= 0) present.push_back(static_cast<uint32_t>(i));
      }
    }
    // A tool in "mcp:<server>" is also in "mcp": the parent is the part before the colon.
    for (const auto& [group, members] : tools.dynamic_groups) {
      std::string_view parent = std::string_view(group).substr(0, group.find(':'));
      for (const std::string& m : members) {
        auto i = static_cast<uint32_t>(Find(m));
        dynamic_[group].push_back(i);
        if (parent != group) dynamic_[std::string(parent)].push_back(i);
      }
    }
  }
  Universe(const Universe&) = delete;
  Universe& operator=(const Universe&) = delete;

  const std::vector<std::string>& names() const { return names_; }
  // alias -> index in names(), sorted by alias; only aliases of present tools.
  const std::vector<std::pair<std::string, uint32_t>>& aliases() const { return aliases_; }

  // Index of a canonical name or alias; -1 when unknown.
  int Find(std::string_view name) const {
    auto it = index_.find(name);
    return it == index_.end() ? -1 : static_cast<int>(it->second);
  }

  // Indices of a built-in group's members present here (members may be aliases).
  const std::vector<uint32_t>& BuiltinMembers(const ToolGroups::Members* group) const {
    return builtin_.at(group);
  }

  // Indices of a dynamic group's members (group:mcp, group:mcp:<server>); nullptr when no tool
  // here belongs to it.
  const std::vector<uint32_t>* DynamicMembers(std::string_view group) const {
    auto it = dynamic_.find(group);
    return it == dynamic_.end() ? nullptr : &it->second;
  }

  // Calls f(index) for every name or alias starting with `prefix`.
  template <class F>
  void ForEachWithPrefix(std::string_view prefix, F f) const {
    for (auto it = std::ranges::lower_bound(names_, prefix, std::less<>());
         it != names_.end() && it->starts_with(prefix); ++it) {
      f(static_cast<uint32_t>(it - names_.begin()));
    }
    auto key = [](const auto& p) -> std::string_view { return p.first; };
    for (auto it = std::ranges::lower_bound(aliases_, prefix, std::less<>(), key);
         it != aliases_.end() && it->first.starts_with(prefix); ++it) {
      f(it->second);
    }
  }

  // Calls f(index) for every name or alias equal to `lower` ignoring ASCII case.
  template <class F>
  void ForEachFolded(std::string_view lower, F f) const {
    auto [lo, hi] = std::ranges::equal_range(
        folded_, lower, std::less<>(), [](const auto& p) -> std::string_view { return p.first; });
    for (auto it = lo; it != hi; ++it) f(it->second);
  }

 private:
  void Add(std::string_view name, uint32_t i) {
    index_.emplace(name, i);
    folded_.emplace_back(AsciiLower(name), i);
  }

  std::vector<std::string> names_;
  std::vector<std::pair<std::string, uint32_t>> aliases_;
  std::unordered_map<std::string_view, uint32_t> index_;
  std::vector<std::pair<std::string, uint32_t>> folded_;
  std::unordered_map<const ToolGroups::Members*, std::vector<uint32_t>> builtin_;
  std::map<std::string, std::vector<uint32_t>, std::less<>> dynamic_;
};

struct Cause {
  PolicyStep step = PolicyStep::kNone;
  const List* list = nullptr;
  const Entry* entry = nullptr;
  bool unmatched = false;
};

struct Trace {
  bool allowed = true;
  Cause last;     // the last step that changed the tool
  Cause removed;  // for a re-added tool, the removal alsoAllow undid
};

PolicyCause ToPublic(const Cause& c) {
  PolicyCause out{.step = c.step, .no_entry_matched = c.unmatched};
  if (c.entry) {
    out.entry = c.entry->text;
  } else if (c.list && c.step == PolicyStep::kProfile) {
    out.entry = c.list->profile;
  }
  if (c.list) out.source = c.list->source;
  return out;
}

// Runs the pipeline's set operations over one universe, recording causes.
class Runner {
 public:
  Runner(const Universe& u, std::vector<Trace>* trace)
      : u_(u), trace_(*trace), hit_(u.names().size()) {}

  void Restrict(const List& list) {
    if (list.entries.empty()) return;
    bool any = Match(list);
    for (size_t i = 0; i < trace_.size(); ++i) {
      if (trace_[i].allowed && !hit_[i]) Remove(i, {list.step, &list, nullptr, !any});
    }
  }

  void Subtract(const List& list) {
    if (list.entries.empty()) return;
    Match(list);
    for (size_t i = 0; i < trace_.size(); ++i) {
      if (trace_[i].allowed && hit_[i]) Remove(i, {list.step, &list, hit_[i], false});
    }
  }

  void Add(const List& list) {
    if (list.entries.empty()) return;
    Match(list);
    for (size_t i = 0; i < trace_.size(); ++i) {
      Trace& t = trace_[i];
      if (t.allowed || !hit_[i]) continue;
      t.allowed = true;
      t.removed = t.last;
      t.last = {list.step, &list, hit_[i], false};
    }
  }

 private:
  void Remove(size_t i, Cause cause) { trace_[i] = Trace{.allowed = false, .last = cause}; }

  // Fills hit_ with the first entry matching each tool; true when any entry matched a tool.
  bool Match(const List& list) {
    std::fill(hit_.begin(), hit_.end(), nullptr);
    bool any = false;
    for (const Entry& e : list.entries) any |= MatchEntry(e, list.fold_case);
    return any;
  }

  bool Mark(int index, const Entry* e) {
    if (index < 0) return false;
    if (!hit_[index]) hit_[index] = e;
    return true;
  }

  bool MatchEntry(const Entry& e, bool fold_case) {
    bool any = false;
    switch (e.kind) {
      case EntryKind::kName:
        if (!fold_case) return Mark(u_.Find(e.text), &e);
        u_.ForEachFolded(e.text, [&](uint32_t i) { any |= Mark(static_cast<int>(i), &e); });
        return any;
      case EntryKind::kGroup:
        if (e.builtin) {
          for (uint32_t i : u_.BuiltinMembers(e.builtin)) any |= Mark(static_cast<int>(i), &e);
        } else if (const auto* members = u_.DynamicMembers(e.group)) {
          for (uint32_t i : *members) any |= Mark(static_cast<int>(i), &e);
        }
        return any;
      case EntryKind::kGlob:
        if (e.prefix_glob) {
          u_.ForEachWithPrefix(std::string_view(e.text).substr(0, e.text.size() - 1),
                               [&](uint32_t i) { any |= Mark(static_cast<int>(i), &e); });
          return any;
        }
        for (size_t i = 0; i < u_.names().size(); ++i) {
          if (GlobMatch(e.text, u_.names()[i])) any |= Mark(static_cast<int>(i), &e);
        }
        for (const auto& [alias, index] : u_.aliases()) {
          if (GlobMatch(e.text, alias)) any |= Mark(static_cast<int>(index), &e);
        }
        return any;
      case EntryKind::kNothing:
        return false;
    }
    return false;
  }

  const Universe& u_;
  std::vector<Trace>& trace_;
  std::vector<const Entry*> hit_;
};

// depth class: 0 main agent, 1 subagent, 2 leaf subagent. The decision depends on the depth
// only through this, so caching by class shares entries across depths.
int DepthClass(int depth, int max_depth) {
  if (depth <= 0) return 0;
  return depth >= max_depth ? 2 : 1;
}

struct KeyView {
  std::string_view agent;
  std::string_view provider;
  int depth_class;
  std::span<const std::string> group_allow;
  uint64_t tools;
};

struct CacheKey {
  std::string agent;
  std::string provider;
  int depth_class;
  std::vector<std::string> group_allow;
  uint64_t tools;

  explicit CacheKey(const KeyView& v)
      : agent(v.agent),
        provider(v.provider),
        depth_class(v.depth_class),
        group_allow(v.group_allow.begin(), v.group_allow.end()),
        tools(v.tools) {}
  KeyView view() const { return {agent, provider, depth_class, group_allow, tools}; }
};

// Transparent hash and equality, so a lookup builds no CacheKey (no allocation on a hit).
struct KeyHash {
  using is_transparent = void;
  size_t operator()(const KeyView& k) const {
    std::hash<std::string_view> h;
    size_t seed = h(k.agent) ^ (h(k.provider) * 31) ^ (static_cast<size_t>(k.depth_class) << 1) ^
                  (k.tools * 0x9e3779b97f4a7c15ull);
    for (const std::string& g : k.group_allow) seed = seed * 1099511628211ull ^ h(g);
    return seed;
  }
  size_t operator()(const CacheKey& k) const { return (*this)(k.view()); }
};

struct KeyEq {
  using is_transparent = void;
  static bool Eq(const KeyView& a, const KeyView& b) {
    return a.tools == b.tools && a.depth_class == b.depth_class && a.agent == b.agent &&
           a.provider == b.provider && std::ranges::equal(a.group_allow, b.group_allow);
  }
  bool operator()(const CacheKey& a, const CacheKey& b) const { return Eq(a.view(), b.view()); }
  bool operator()(const KeyView& a, const CacheKey& b) const { return Eq(a, b.view()); }
  bool operator()(const CacheKey& a, const KeyView& b) const { return Eq(a.view(), b); }
};

// Per-request group allow lists make the key space open-ended; past this the cache is
// dropped wholesale, which costs one cold evaluation per live key.
constexpr size_t kMaxCacheEntries = 4096;
// Distinct tool sets alive at once: one per registry clone (per-agent custom tools).
constexpr size_t kMaxUniverses = 256;

}  // namespace policy_impl

using namespace policy_impl;

struct PolicyEngine::Evaluation {
  std::shared_ptr<const Universe> universe;
  List group_allow;          // the request's list; causes may point into it
  std::vector<Trace> trace;  // by universe index
  std::vector<std::string> allowed;

  // Built on first use: most callers only need canonical names.
  const std::vector<std::string>& allowed_with_aliases() const {
    std::call_once(aliases_once_, [this] {
      with_aliases_ = allowed;
      for (const auto& [alias, index] : universe->aliases()) {
        if (trace[index].allowed) with_aliases_.push_back(alias);
      }
      std::ranges::sort(with_aliases_);
    });
    return with_aliases_;
  }

 private:
  mutable std::once_flag aliases_once_;
  mutable std::vector<std::string> with_aliases_;
};

struct PolicyEngine::Snapshot {
  PolicyConfig config;
  CompiledScope global;
  std::map<std::string, CompiledScope, std::less<>> agents;

  mutable std::shared_mutex cache_mu;  // guards both caches
  mutable std::unordered_map<CacheKey, std::shared_ptr<const Evaluation>, KeyHash, KeyEq> cache;
  // By tool-set fingerprint: a new group allow list reuses the indexed names.
  mutable std::unordered_map<uint64_t, std::shared_ptr<const Universe>> universes;

  explicit Snapshot(PolicyConfig cfg) : config(std::move(cfg)) {
    global = CompileScope(config.global, 0);
    for (const auto& [id, scope] : config.agents) agents.emplace(id, CompileScope(scope, 2));
  }

  std::shared_ptr<const Evaluation> Compute(std::shared_ptr<const Universe> universe,
                                            const PolicyEngine::QueryView& q,
                                            int depth_class) const {
    auto ev = std::make_shared<Evaluation>();
    ev->universe = std::move(universe);
    const Universe& u = *ev->universe;
    ev->trace.resize(u.names().size());

    const CompiledScope* agent = nullptr;
    if (auto it = agents.find(q.agent_id); !q.agent_id.empty() && it != agents.end()) {
      agent = &it->second;
    }
    auto provider_spec = [&q](const CompiledScope* scope) -> const CompiledSpec* {
      if (!scope || q.provider.empty()) return nullptr;
      auto it = scope->by_provider.find(q.provider);
      return it == scope->by_provider.end() ? nullptr : &it->second;
    };
    const CompiledSpec* levels[] = {&global.base, provider_spec(&global),
                                    agent ? &agent->base : nullptr, provider_spec(agent)};

    Runner run(u, &ev->trace);
    const List* profile = nullptr;
    for (const CompiledSpec* s : levels) {
      if (s && s->profile) profile = &*s->profile;
    }
    if (profile) run.Restrict(*profile);
    for (const CompiledSpec* s : levels) {
      if (s) run.Restrict(s->allow);
    }
    if (!q.group_allow.empty()) {
      ev->group_allow = CompileList(q.group_allow, PolicyStep::kGroupAllow, "request.group_allow");
      run.Restrict(ev->group_allow);
    }
    for (const CompiledSpec* s : levels) {
      if (s) run.Subtract(s->deny);
    }
    for (const CompiledSpec* s : levels) {
      if (s) run.Add(s->also_allow);
    }
    if (depth_class >= 1) run.Subtract(SubagentDenyList());
    if (depth_class == 2) run.Subtract(LeafDenyList());

    for (size_t i = 0; i < u.names().size(); ++i) {
      if (ev->trace[i].allowed) ev->allowed.push_back(u.names()[i]);
    }
    return ev;
  }
};

const char* PolicyStepName(PolicyStep step) {
  switch (step) {
    case PolicyStep::kNone:
      return "";
    case PolicyStep::kProfile:
      return "profile";
    case PolicyStep::kGlobalAllow:
      return "global_allow";
    case PolicyStep::kProviderAllow:
      return "provider_allow";
    case PolicyStep::kAgentAllow:
      return "agent_allow";
    case PolicyStep::kAgentProviderAllow:
      return "agent_provider_allow";
    case PolicyStep::kGroupAllow:
      return "group_allow";
    case PolicyStep::kGlobalDeny:
      return "global_deny";
    case PolicyStep::kProviderDeny:
      return "provider_deny";
    case PolicyStep::kAgentDeny:
      return "agent_deny";
    case PolicyStep::kAgentProviderDeny:
      return "agent_provider_deny";
    case PolicyStep::kGlobalAlsoAllow:
      return "global_also_allow";
    case PolicyStep::kProviderAlsoAllow:
      return "provider_also_allow";
    case PolicyStep::kAgentAlsoAllow:
      return "agent_also_allow";
    case PolicyStep::kAgentProviderAlsoAllow:
      return "agent_provider_also_allow";
    case PolicyStep::kSubagentDeny:
      return "subagent_deny";
    case PolicyStep::kLeafDeny:
      return "leaf_deny";
  }
  return "";
}

std::string PolicyCause::Describe() const {
  const std::string quoted = "\"" + entry + "\"";
  switch (step) {
    case PolicyStep::kNone:
      return "";
    case PolicyStep::kProfile:
      return "not in profile " + quoted + " set by " + source;
    case PolicyStep::kGlobalAllow:
    case PolicyStep::kProviderAllow:
    case PolicyStep::kAgentAllow:
    case PolicyStep::kAgentProviderAllow:
    case PolicyStep::kGroupAllow:
      if (no_entry_matched) {
        return "no entry of " + source + " matches a registered tool, so it allows nothing";
      }
      return "not matched by " + source;
    case PolicyStep::kGlobalAlsoAllow:
    case PolicyStep::kProviderAlsoAllow:
    case PolicyStep::kAgentAlsoAllow:
    case PolicyStep::kAgentProviderAlsoAllow:
      return "re-added by " + source + " entry " + quoted;
    default:
      return "removed by " + source + " entry " + quoted;
  }
}

namespace {

Json CauseJson(const PolicyCause& c) {
  Json j = {{"step", PolicyStepName(c.step)}, {"entry", c.entry}, {"source", c.source}};
  j["note"] = c.Describe();
  return j;
}

ToolDecision MakeDecision(const PolicyEngine::Evaluation& ev, size_t index) {
  const Trace& t = ev.trace[index];
  ToolDecision d{
      .tool = ev.universe->names()[index], .allowed = t.allowed, .cause = ToPublic(t.last)};
  for (const auto& [alias, canonical] : ev.universe->aliases()) {
    if (canonical == index) d.aliases.push_back(alias);
  }
  if (t.removed.step != PolicyStep::kNone) d.overrode = ToPublic(t.removed);
  return d;
}

}  // namespace

Json ToolDecision::ToJson() const {
  Json j = {{"tool", tool}, {"allowed", allowed}};
  if (!aliases.empty()) j["aliases"] = aliases;
  if (cause.step != PolicyStep::kNone) j.update(CauseJson(cause));
  if (overrode) j["overrode"] = CauseJson(*overrode);
  return j;
}

PolicyEngine::PolicyEngine(PolicyConfig cfg)
    : snapshot_(std::make_shared<const Snapshot>(std::move(cfg))) {}

PolicyEngine::~PolicyEngine() = default;

void PolicyEngine::Install(PolicyConfig cfg) {
  auto next = std::make_shared<const Snapshot>(std::move(cfg));
  std::unique_lock lock(mu_);
  snapshot_ = std::move(next);
}

void PolicyEngine::SetConfig(PolicyConfig cfg) {
  std::lock_guard writer(write_mu_);
  Install(std::move(cfg));
}

Status PolicyEngine::SetAgentPolicy(std::string agent_id, ScopePolicy scope,
                                    std::vector<std::string>* warnings) {
  std::lock_guard writer(write_mu_);
  PolicyConfig cfg = snapshot()->config;
  if (scope.origin.empty()) scope.origin = "agents[" + agent_id + "].tools";
  if (auto st = ValidateScope(scope, &cfg.global, warnings); !st) return st;
  cfg.agents.insert_or_assign(std::move(agent_id), std::move(scope));
  Install(std::move(cfg));
  return {};
}

bool PolicyEngine::RemoveAgentPolicy(std::string_view agent_id) {
  std::lock_guard writer(write_mu_);
  PolicyConfig cfg = snapshot()->config;
  auto it = cfg.agents.find(agent_id);
  if (it == cfg.agents.end()) return false;
  cfg.agents.erase(it);
  Install(std::move(cfg));
  return true;
}

PolicyConfig PolicyEngine::config() const {
  return snapshot()->config;
}

std::shared_ptr<const PolicyEngine::Snapshot> PolicyEngine::snapshot() const {
  std::shared_lock lock(mu_);
  return snapshot_;
}

std::shared_ptr<const PolicyEngine::Evaluation> PolicyEngine::Evaluate(
    const Registry& reg, const QueryView& q, std::shared_ptr<const Snapshot>* snap_out) const {
  std::shared_ptr<const Snapshot> snap = snapshot();
  // The registry's generation is process-unique per tool set, so it keys the cache without
  // copying the names; they are read (with their generation, under one lock) only on a miss.
  KeyView key{q.agent_id, q.provider, DepthClass(q.subagent_depth, snap->config.max_spawn_depth),
              q.group_allow, reg.generation()};
  std::shared_ptr<const Evaluation> ev;
  {
    std::shared_lock lock(snap->cache_mu);
    if (auto it = snap->cache.find(key); it != snap->cache.end()) ev = it->second;
  }
  if (!ev) {
    std::shared_ptr<const Universe> universe;
    {
      std::shared_lock lock(snap->cache_mu);
      if (auto it = snap->universes.find(key.tools); it != snap->universes.end()) {
        universe = it->second;
      }
    }
    if (!universe) {
      Registry::ToolSet tools = reg.Snapshot();
      key.tools = tools.generation;
      universe = std::make_shared<const Universe>(std::move(tools));
    }
    ev = snap->Compute(universe, q, key.depth_class);
    std::unique_lock lock(snap->cache_mu);
    if (snap->cache.size() >= kMaxCacheEntries) snap->cache.clear();
    if (snap->universes.size() >= kMaxUniverses) snap->universes.clear();
    snap->universes.try_emplace(key.tools, std::move(universe));
    ev = snap->cache.try_emplace(CacheKey(key), ev).first->second;
  }
  if (snap_out) *snap_out = std::move(snap);
  return ev;
}

std::shared_ptr<const std::vector<std::string>> PolicyEngine::Allowed(const Registry& reg,
                                                                      const PolicyQuery& q) const {
  auto ev = Evaluate(reg, View(q), nullptr);
  return {ev, &ev->allowed};
}

std::shared_ptr<const std::vector<std::string>> PolicyEngine::AllowedWithAliases(
    const Registry& reg, const PolicyQuery& q) const {
  auto ev = Evaluate(reg, View(q), nullptr);
  return {ev, &ev->allowed_with_aliases()};
}

bool PolicyEngine::IsAllowed(const Registry& reg, const PolicyQuery& q,
                             std::string_view name) const {
  auto ev = Evaluate(reg, View(q), nullptr);
  int index = ev->universe->Find(name);
  return index >= 0 && ev->trace[index].allowed;
}

std::optional<ToolDecision> PolicyEngine::Decide(const Registry& reg, const PolicyQuery& q,
                                                 std::string_view name) const {
  std::shared_ptr<const Snapshot> snap;  // keeps the causes' lists alive
  auto ev = Evaluate(reg, View(q), &snap);
  int index = ev->universe->Find(name);
  if (index < 0) return std::nullopt;
  return MakeDecision(*ev, index);
}

std::optional<std::string> PolicyEngine::Refusal(const Registry& reg, const QueryView& q,
                                                 std::string_view name) const {
  std::shared_ptr<const Snapshot> snap;
  auto ev = Evaluate(reg, q, &snap);
  int index = ev->universe->Find(name);
  if (index < 0) return "the policy's registry has no such tool, so it cannot allow it";
  if (ev->trace[index].allowed) return std::nullopt;
  return ToPublic(ev->trace[index].last).Describe();
}

std::vector<ToolDecision> PolicyEngine::Explain(const Registry& reg, const PolicyQuery& q) const {
  std::shared_ptr<const Snapshot> snap;
  auto ev = Evaluate(reg, View(q), &snap);
  std::vector<ToolDecision> out;
  out.reserve(ev->universe->names().size());
  for (size_t i = 0; i < ev->universe->names().size(); ++i) out.push_back(MakeDecision(*ev, i));
  return out;
}

}  // namespace clawtools
