// Registries of no-op tools for the policy tests.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/registry.h"
#include "core/tool.h"
#include "policy/policy_config.h"
#include "policy/tool_groups.h"

namespace clawtools::testing {

// Counts its calls, so a test can prove a refused tool never ran.
class CountingTool : public SimpleTool {
 public:
  explicit CountingTool(std::string name)
      : SimpleTool(std::move(name), "test tool", Json{{"type", "object"}}) {}
  Result Execute(const CallContext&, const Json&) const override {
    ++calls;
    return Result::Text("ran " + name());
  }
  mutable std::atomic<int> calls{0};
};

// An MCP bridge stand-in: a member of the dynamic policy group `group` ("mcp:<server>").
class GroupedTool : public CountingTool {
 public:
  GroupedTool(std::string name, std::string group)
      : CountingTool(std::move(name)), group_(std::move(group)) {}
  const std::string& dynamic_group() const override { return group_; }

 private:
  std::string group_;
};

// The seed's native tools (group:goclaw).
inline std::vector<std::string> NativeTools() {
  const auto* goclaw = ToolGroups::Builtin("goclaw");
  return {goclaw->begin(), goclaw->end()};
}

inline const std::vector<std::string> kMcpTools = {"mcp_github__create_issue",
                                                   "mcp_github__list_prs", "mcp_pg__query"};

inline std::unique_ptr<Registry> MakeRegistry(
    const std::vector<std::string>& names,
    const std::vector<std::pair<std::string, std::string>>& aliases = {}) {
  auto reg = std::make_unique<Registry>();
  for (const auto& n : names) EXPECT_TRUE(reg->Register(std::make_shared<CountingTool>(n)));
  for (const auto& [alias, canonical] : aliases) {
    EXPECT_TRUE(reg->RegisterAlias(alias, canonical)) << alias;
  }
  return reg;
}

// Native tools + three MCP tools + GoClaw's aliases of native tools.
inline std::unique_ptr<Registry> StandardRegistry() {
  auto names = NativeTools();
  names.insert(names.end(), kMcpTools.begin(), kMcpTools.end());
  return MakeRegistry(names, {{"bash", "exec"},
                              {"Bash", "exec"},
                              {"Read", "read_file"},
                              {"Write", "write_file"},
                              {"Agent", "spawn"},
                              {"WebFetch", "web_fetch"}});
}

inline PolicyConfig MustParse(const std::string& text,
                              std::vector<std::string>* warnings = nullptr) {
  auto cfg = PolicyConfig::FromJson(Json::parse(text), warnings);
  EXPECT_TRUE(cfg.has_value()) << (cfg ? "" : cfg.error().for_model);
  return cfg ? *cfg : PolicyConfig{};
}

}  // namespace clawtools::testing
