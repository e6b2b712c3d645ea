// A custom tool as the registry sees it: validated arguments -> one-pass render with shell
// quoting -> CommandLauncher (the same working-dir resolution, command gate, sandbox routing
// and scrubbed environment as exec, plus the tool's decrypted env) -> run to completion under
// the tool's timeout -> output capped like exec's. Scrubbing is the registry pipeline's job;
// the loader registers the env values with the scrubber.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "core/tool.h"
#include "custom_tools/command_template.h"
#include "custom_tools/custom_tool_def.h"
#include "tools/runtime/command_launcher.h"

namespace clawtools::custom_tools {

class CustomTool final : public SimpleTool {
 public:
  // `def` must have passed ValidateDefinition; `env` is its plaintext environment.
  static Expected<std::shared_ptr<const CustomTool>> Create(
      const CustomToolDef& def, std::map<std::string, std::string> env,
      std::shared_ptr<const CommandLauncher> launcher);

  Result Execute(const CallContext& ctx, const Json& args) const override;

  const std::string& id() const { return id_; }

 private:
  CustomTool(const CustomToolDef& def, CommandTemplate tmpl,
             std::map<std::string, std::string> env,
             std::shared_ptr<const CommandLauncher> launcher);

  std::string id_;
  CommandTemplate template_;
  std::string working_dir_;
  std::chrono::seconds timeout_;
  std::map<std::string, std::string> env_;
  std::shared_ptr<const CommandLauncher> launcher_;
};

}  // namespace clawtools::custom_tools
