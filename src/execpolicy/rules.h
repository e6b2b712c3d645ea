// The deny rules: small per-group tables over canonical Invocations (program name, flags as the
// program reads them, operands, redirections, environment prefixes).
//
// Rule ids are "<group>.<rule>". Groups can be switched off or on per agent
// (AnalysisOptions); "analysis" findings (unparseable, too complex, unknown command name)
// belong to no group and cannot be switched off. Structural rules that need the whole command
// (pipes into shells, eval of unknown text, fork bombs, download-then-run) live in the
// analyzer but report under the same groups.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "execpolicy/invocation.h"

namespace clawtools::execpolicy {

struct GroupInfo {
  std::string_view name;
  bool default_enabled;
  std::string_view covers;  // one line for the README and --help
};

const std::vector<GroupInfo>& RuleGroups();

// Every check that concerns the invocation, in table order; findings go to `out` (which drops
// disabled groups). Nothing is checked once `out` holds a deny: no later finding could count.
void ApplyRules(const Invocation& inv, Findings& out);

// What a check sees: the invocation, its program name, and the files it writes.
class RuleInput {
 public:
  explicit RuleInput(const Invocation& inv) : inv(inv), program(inv.Program()) {}
  const Invocation& inv;
  const std::string_view program;  // inv.Program()
  // Output redirections, tee operands, cp/mv/ln/install destinations, sed -i and dd of=
  // targets (rules_paths.cc); computed on first use.
  const std::vector<Field>& Written() const;

 private:
  mutable std::optional<std::vector<Field>> written_;
};

// One check of a table. Checks are indexed by program name so that a command only runs the
// checks that can concern it, plus those that look at every command.
struct Rule {
  void (*check)(const RuleInput& in, Findings& out);
  // The program names the check concerns, separated by spaces; "name*" stands for every name
  // starting with "name"; empty: every command.
  std::string_view programs;
  bool redirects = false;  // also every command with a redirection
};

// The tables of the group families (rules_*.cc), in the order their checks run. A check must
// find nothing for a program it does not list (unless it has redirections and `redirects`).
std::span<const Rule> DestructiveRules();  // destructive_fs, disk
std::span<const Rule> SystemRules();       // system_control, process_control, privilege_escalation,
                                           // container_escape
std::span<const Rule> PathRules();         // dangerous_paths, secret_read, persistence, env_dump
std::span<const Rule> NetworkRules();      // reverse_shell, data_exfiltration, network_recon,
                                           // crypto_mining, network_tools
std::span<const Rule> InjectionRules();    // code_injection_env, package_install

// Helpers shared by the tables.
bool IsShell(std::string_view program);

}  // namespace clawtools::execpolicy
