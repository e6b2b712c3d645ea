// The tool registry: the single entry point through which every tool call runs.
//
// Thread-safe. Registration takes an exclusive lock; lookups and calls a shared one, held
// only while the tool is resolved (tools are held by shared_ptr, so a concurrent Unregister
// never pulls a tool out from under a running call).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "core/call_context.h"
#include "core/call_log.h"
#include "core/error.h"
#include "core/filter.h"
#include "core/tool.h"

namespace clawtools {

struct CallOutcome {
  std::string tool;  // the canonical name when resolved, else the requested name
  Result result;
  std::chrono::microseconds duration{0};
};

struct RegistryOptions {
  std::chrono::milliseconds default_timeout{std::chrono::minutes(10)};
  std::string workspace;  // default workspace when a request carries none
};

class Registry {
 public:
  explicit Registry(RegistryOptions options = {}, std::shared_ptr<CallLog> log = nullptr);

  // Fails with kAlreadyExists when a tool or alias already has that name.
  Status Register(std::shared_ptr<const Tool> tool);
  // Registers or replaces (used by live reloads).
  void Upsert(std::shared_ptr<const Tool> tool);
  bool Unregister(std::string_view name);
  // Fails when `alias` names a real tool or `canonical` is unknown.
  Status RegisterAlias(std::string alias, std::string canonical);

  // Resolves aliases. nullptr when unknown.
  std::shared_ptr<const Tool> Get(std::string_view name) const;
  // The canonical name for a tool name or alias, or empty when unknown.
  std::string Canonical(std::string_view name) const;
  // Canonical tool names, sorted.
  std::vector<std::string> List() const;
  // alias -> canonical, sorted by alias.
  std::map<std::string, std::string, std::less<>> Aliases() const;
  std::vector<std::shared_ptr<const Tool>> Tools() const;
  size_t size() const;
  // Changes on every change to the tool or alias set, and is unique across the process (a
  // clone shares it only until either side changes): caches (policy) key on it, so equal
  // generations mean equal tool sets, even across registries.
  uint64_t generation() const;

  // Names, aliases, dynamic groups and the generation they belong to, read under one lock.
  struct ToolSet {
    uint64_t generation = 0;
    std::vector<std::string> names;                           // sorted
    std::map<std::string, std::string, std::less<>> aliases;  // alias -> canonical
    std::map<std::string, std::vector<std::string>, std::less<>> dynamic_groups;  // -> sorted names
  };
  ToolSet Snapshot() const;

  // Filters run in the order added. Add them while wiring, before serving calls.
  void AddFilter(std::shared_ptr<CallFilter> filter);

  // A shallow copy: same tool instances, aliases, filters, options and log.
  std::unique_ptr<Registry> Clone() const;

  // Runs one call through the whole pipeline. Never throws.
  CallOutcome Execute(const CallRequest& request) const;

  const RegistryOptions& options() const { return options_; }

 private:
  RegistryOptions options_;
  std::shared_ptr<CallLog> log_;
  mutable std::shared_mutex mu_;
  std::map<std::string, std::shared_ptr<const Tool>, std::less<>> tools_;
  std::map<std::string, std::string, std::less<>> aliases_;
  using FilterChain = std::vector<std::shared_ptr<CallFilter>>;
  // Copy-on-write: a call snapshots the chain with one refcount increment.
  std::shared_ptr<const FilterChain> filters_;
  uint64_t generation_ = 0;
};

}  // namespace clawtools
