#include <iostream>
#include <iterator>
#include <fstream>

#include "cli/commands.h"
#include "cli/runtime_flags.h"
#include "policy/policy_config.h"
#include "store/agent_store.h"
#include "store/store.h"

namespace clawtools::cli {
namespace {

Json AgentJson(const store::Agent& a) {
  Json tools = a.tools_config.empty() ? Json() : Json::parse(a.tools_config, nullptr, false);
  return {{"id", a.id},
          {"key", a.agent_key},
          {"type", store::AgentTypeName(a.type)},
          {"tools", tools.is_discarded() ? Json(a.tools_config) : tools},
          {"created_at", a.created_at},
          {"updated_at", a.updated_at}};
}

// --tools takes inline JSON, a file, or - for stdin.
Expected<std::string> ReadToolsArg(const std::string& arg) {
  std::string text;
  if (arg.empty()) return text;  // clears the policy
  if (arg == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else if (!arg.empty() && (arg.front() == '{' || arg.front() == ' ')) {
    text = arg;
  } else {
    std::ifstream in(arg);
    if (!in) return Fail(ErrorCode::kNotFound, "cannot read " + arg);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return text;
}

}  // namespace

int RunAgents(const AgentsFlags& flags) {
  auto runtime = MakeRuntime(flags.common, LogLevel::kError);
  if (!runtime) {
    std::cerr << "clawtools agents: " << runtime.error().log_message() << "\n";
    return kExitFailure;
  }
  store::AgentStore agents((*runtime)->store());

  if (flags.action == "list") {
    auto list = agents.List();
    if (!list) {
      std::cerr << "clawtools agents: " << list.error().log_message() << "\n";
      return kExitFailure;
    }
    Json out = Json::array();
    for (const auto& a : *list) out.push_back(AgentJson(a));
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }
  if (flags.id.empty()) {
    std::cerr << "clawtools agents " << flags.action << ": an agent id is required\n";
    return kExitUsage;
  }
  auto existing = agents.Get(flags.id);
  if (!existing) {
    std::cerr << "clawtools agents: " << existing.error().log_message() << "\n";
    return kExitFailure;
  }
  if (flags.action == "show") {
    if (!*existing) {
      std::cerr << "clawtools agents: no agent " << flags.id << "\n";
      return kExitFailure;
    }
    std::cout << AgentJson(**existing).dump(2) << "\n";
    return kExitOk;
  }
  if (flags.action == "rm") {
    if (auto s = agents.Remove(flags.id); !s) {
      std::cerr << "clawtools agents rm: " << s.error().log_message() << "\n";
      return kExitFailure;
    }
    return kExitOk;
  }
  // set
  store::Agent agent = existing->value_or(store::Agent{.id = flags.id});
  if (!flags.type.empty()) {
    auto t = store::ParseAgentType(flags.type);
    if (!t) {
      std::cerr << "clawtools agents set: --type must be open or predefined\n";
      return kExitUsage;
    }
    agent.type = *t;
  }
  if (!flags.key.empty()) agent.agent_key = flags.key;
  if (flags.tools) {
    auto text = ReadToolsArg(*flags.tools);
    if (!text) {
      std::cerr << "clawtools agents set: " << text.error().log_message() << "\n";
      return kExitFailure;
    }
    if (text->find_first_not_of(" \t\r\n") == std::string::npos) {
      agent.tools_config.clear();
    } else {
      Json json = ParseJsonLenient(*text);
      if (json.is_discarded() || !json.is_object()) {
        std::cerr << "clawtools agents set: --tools must be a JSON object\n";
        return kExitUsage;
      }
      // Refuse what the gateway would refuse, so a typo never silently widens the policy.
      std::vector<std::string> warnings;
      auto scope = ScopePolicy::FromJson(json, "store.tools_config[" + flags.id + "]", true, &warnings);
      if (!scope) {
        std::cerr << "clawtools agents set: " << scope.error().log_message() << "\n";
        return kExitUsage;
      }
      for (const auto& w : warnings) std::cerr << "warning: " << w << "\n";
      agent.tools_config = json.dump();
    }
  }
  if (auto s = agents.Put(agent); !s) {
    std::cerr << "clawtools agents set: " << s.error().log_message() << "\n";
    return kExitFailure;
  }
  auto saved = agents.Get(flags.id);
  if (saved && *saved) std::cout << AgentJson(**saved).dump(2) << "\n";
  return kExitOk;
}

}  // namespace clawtools::cli
