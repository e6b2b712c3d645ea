#include "execpolicy/command_analysis.h"

#include "execpolicy/analyzer.h"
#include "execpolicy/invocation.h"

namespace clawtools::execpolicy {

const char* DecisionName(Decision d) {
  switch (d) {
    case Decision::kAllow:
      return "allow";
    case Decision::kDeny:
      return "deny";
    case Decision::kAsk:
      return "ask";
  }
  return "deny";
}

Analysis AnalyzeCommand(std::string_view command, const AnalysisOptions& options) {
  Analysis out;
  out.commands.reserve(4);  // saves regrowing the list for the usual handful of programs
  Findings findings(options);
  try {
    if (command.find('\0') != std::string_view::npos) {
      // bash cannot receive a NUL in -c: whatever the caller meant is not what would run.
      findings.Deny("analysis", "parse_error", "the command contains a NUL byte", "");
    } else {
      AnalyzeScript(command, findings, out.commands);
    }
  } catch (const std::exception& e) {
    findings.Deny("analysis", "internal_error", std::string("the analysis failed: ") + e.what(),
                  "");
  }
  if (auto f = std::move(findings).TakeDecisive()) {
    out.decision = f->decision;
    out.rule = std::move(f->rule);
    out.reason = std::move(f->reason);
    out.matched = std::move(f->matched);
  }
  return out;
}

}  // namespace clawtools::execpolicy
