#include "tools/runtime/runtime_tools.h"

#include <unistd.h>

#include "tools/runtime/exec_tool.h"
#include "tools/runtime/process_tool.h"

namespace clawtools {

RuntimeTools MakeRuntimeTools(const Json& config_root, std::shared_ptr<const CommandGate> gate,
                              std::shared_ptr<const sandbox::Sandbox> sandbox) {
  ExecSettings settings = ExecSettingsFrom(config_root);
  if (std::string reaper = sandbox::DefaultInitHelperPath(); ::access(reaper.c_str(), X_OK) == 0)
    settings.host_reaper = std::move(reaper);
  auto processes = std::make_shared<ProcessRegistry>(settings.process);
  auto policy_for = [root = config_root](const CallContext& ctx) {
    return sandbox::PolicyFor(root, ctx.agent_id());
  };
  auto launcher = std::make_shared<const CommandLauncher>(
      std::move(gate), std::move(sandbox), std::move(policy_for), std::move(settings));
  return {std::make_shared<ExecTool>(launcher), std::make_shared<ProcessTool>(launcher, processes),
          processes, launcher};
}

}  // namespace clawtools
