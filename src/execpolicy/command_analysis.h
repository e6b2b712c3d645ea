// Shell command analysis: parses a command the way bash would and decides allow / deny / ask.
//
// CONTRACT (other components depend on it; extend, don't break):
//   AnalyzeCommand(command, options) never throws, never allows what it could not parse
//   (fail closed: deny or ask), and reports every simple command that would run, recursively
//   (through sh -c, eval, xargs, find -exec, env/sudo/nohup/timeout wrappers, substitutions,
//   pipes into shells and interpreters), as canonical argv vectors after quote removal and
//   static expansion.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clawtools::execpolicy {

enum class Decision { kAllow, kDeny, kAsk };
const char* DecisionName(Decision d);  // "allow" | "deny" | "ask"

struct SimpleCommand {
  std::vector<std::string> argv;  // canonical words (quotes removed, constants expanded)
  bool dynamic = false;           // some word depends on run-time values (unknown $VAR, $(...))
};

struct Analysis {
  Decision decision = Decision::kAllow;
  std::string
      rule;  // the rule that decided, e.g. "destructive_fs.rm_recursive_force"; "" for allow
  std::string reason;                   // one sentence for the model and the user
  std::string matched;                  // the canonical command that matched, e.g. "rm -r -f /"
  std::vector<SimpleCommand> commands;  // every command that would run
};

struct AnalysisOptions {
  // Deny groups switched off (by name), e.g. {"package_install"}; per agent from config.
  std::vector<std::string> disabled_groups;
  // Deny groups switched on that are off by default.
  std::vector<std::string> enabled_groups;
  // Variables the runner adds to the environment (a custom tool's own env): printing them is
  // not a secret dump (their values are the tool's own, and scrubbed from its output).
  std::vector<std::string> provided_variables;
};

Analysis AnalyzeCommand(std::string_view command, const AnalysisOptions& options = {});

}  // namespace clawtools::execpolicy
