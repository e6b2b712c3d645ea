#include <unistd.h>

#include <iostream>
#include <iterator>

#include "cli/commands.h"
#include "cli/runtime_flags.h"
#include "gateway/outcome_json.h"

namespace clawtools::cli {

int RunCall(const CallFlags& flags) {
  std::string text;
  if (flags.args_json) {
    text = *flags.args_json;
  } else if (!isatty(STDIN_FILENO)) {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  Json args = Json::object();
  if (text.find_first_not_of(" \t\r\n") != std::string::npos) {
    args = Json::parse(text, nullptr, false);
    if (args.is_discarded()) {
      std::cerr << "clawtools call: ARGS_JSON is not valid JSON\n";
      return kExitUsage;
    }
    if (!args.is_object()) {
      std::cerr << "clawtools call: ARGS_JSON must be a JSON object\n";
      return kExitUsage;
    }
  }
  auto peer = ParsePeerKind(flags.peer_kind);
  if (!peer) {
    std::cerr << "clawtools call: --peer-kind must be direct or group\n";
    return kExitUsage;
  }

  CommonFlags common = flags.common;
  common.interactive_approvals = true;
  auto runtime = MakeRuntime(common, LogLevel::kError);
  if (!runtime) {
    std::cerr << "clawtools call: " << runtime.error().log_message() << "\n";
    return kExitFailure;
  }

  CallRequest req;
  req.tool = flags.tool;
  req.args = std::move(args);
  req.session_key = flags.session;
  req.channel = flags.channel;
  req.chat_id = flags.chat_id;
  req.peer_kind = *peer;
  req.agent_id = flags.agent;
  req.user_id = flags.user;
  req.provider = flags.provider;
  req.group_allow = flags.group_allow;
  req.subagent_depth = flags.subagent_depth;
  if (flags.timeout_ms > 0) req.timeout = std::chrono::milliseconds(flags.timeout_ms);

  CallOutcome outcome = (*runtime)->Call(req);
  std::cout << OutcomeToJson(outcome).dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
  return kExitOk;
}

}  // namespace clawtools::cli
