#include <iostream>

#include "cli/commands.h"
#include "cli/runtime_flags.h"

namespace clawtools::cli {

int RunTools(const ToolsFlags& flags) {
  if (flags.format != "openai" && flags.format != "anthropic") {
    std::cerr << "clawtools tools: --format must be openai or anthropic\n";
    return kExitUsage;
  }
  if (flags.subagent_depth < 0) {
    std::cerr << "clawtools tools: --subagent-depth must be >= 0\n";
    return kExitUsage;
  }
  auto runtime = MakeRuntime(flags.common, LogLevel::kError);
  if (!runtime) {
    std::cerr << "clawtools tools: " << runtime.error().log_message() << "\n";
    return kExitFailure;
  }
  ToolQuery query{.agent_id = flags.agent,
                  .user_id = flags.user,
                  .provider = flags.provider,
                  .subagent_depth = flags.subagent_depth,
                  .group_allow = flags.group_allow};
  Json out = flags.explain ? (*runtime)->ExplainTools(query)
                           : (*runtime)->ToolDefinitions(query, flags.format == "openai"
                                                                    ? DefinitionFormat::kOpenAI
                                                                    : DefinitionFormat::kAnthropic);
  std::cout << out.dump(2) << "\n";
  return kExitOk;
}

}  // namespace clawtools::cli
