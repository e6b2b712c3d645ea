// Shared helpers of the approval tests: hand-made analyses (the approval workflow is tested
// without the command analyser) and call contexts.
#pragma once

#include <chrono>
#include <initializer_list>
#include <stop_token>
#include <string>
#include <vector>

#include "core/call_context.h"
#include "execpolicy/command_analysis.h"

namespace clawtools::testing {

inline execpolicy::Analysis Analysis(std::initializer_list<std::vector<std::string>> commands,
                                     execpolicy::Decision decision = execpolicy::Decision::kAllow,
                                     std::string rule = "", std::string reason = "") {
  execpolicy::Analysis a;
  a.decision = decision;
  a.rule = std::move(rule);
  a.reason = std::move(reason);
  for (const auto& argv : commands) a.commands.push_back({argv, false});
  return a;
}

inline CallContext Context(std::string agent,
                           std::chrono::milliseconds budget = std::chrono::seconds(30),
                           std::stop_token stop = {}) {
  CallRequest req;
  req.tool = "exec";
  req.agent_id = std::move(agent);
  req.user_id = "u1";
  req.session_key = "s1";
  return CallContext(req, "exec", "/tmp", CallContext::Clock::now() + budget, std::move(stop));
}

}  // namespace clawtools::testing
