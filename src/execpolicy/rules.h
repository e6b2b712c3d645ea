// The deny rules: small per-group tables over canonical Invocations (program name, flags as the
// program reads them, operands, redirections, environment prefixes).
//
// Rule ids are "<group>.<rule>". Groups can be switched off or on per agent
// (AnalysisOptions); "analysis" findings (unparseable, too complex, unknown command name)
// belong to no group and cannot be switched off. Structural rules that need the whole command
// (pipes into shells, eval of unknown text, fork bombs, download-then-run) live in the
// analyzer but report under the same groups.
#pragma once

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

// Every group's table, in order; findings go to `out` (which drops disabled groups).
void ApplyRules(const Invocation& inv, Findings& out);

// One function per family of groups (rules_*.cc).
void CheckDestructive(const Invocation& inv, Findings& out);  // destructive_fs, disk
void CheckSystem(const Invocation& inv, Findings& out);       // system_control, process_control,
                                                         // privilege_escalation, container_escape
void CheckPaths(const Invocation& inv, Findings& out);  // dangerous_paths, secret_read,
                                                        // persistence, env_dump
void CheckNetwork(const Invocation& inv,
                  Findings& out);  // reverse_shell, data_exfiltration,
                                   // network_recon, crypto_mining, network_tools
void CheckInjection(const Invocation& inv, Findings& out);  // code_injection_env, package_install

// Helpers shared by the tables.
bool IsShell(std::string_view program);
bool ProgramIs(const Invocation& inv, std::initializer_list<std::string_view> names);

}  // namespace clawtools::execpolicy
