// Walks a parsed command the way bash would run it, producing an Invocation for every simple
// command (recursively through wrappers, nested shells, eval, xargs, find -exec, substitutions
// and interpreter code) and checking each against the rules.
//
// Variables: assignments to constants are followed in order; an assignment in a branch that
// may not run (after && or ||, in if/case/loop bodies) makes the variable unknown afterwards;
// pipelines, subshells and background jobs do not leak assignments. Data flow: each command's
// stdin (pipe, here-doc, here-string, < file) is tracked as known text or as unknown with a
// taint (downloaded, decoded), which decides what a shell or interpreter reading it runs.
#pragma once

#include <string_view>
#include <vector>

#include "execpolicy/command_analysis.h"
#include "execpolicy/invocation.h"

namespace clawtools::execpolicy {

// Nested scripts (sh -c inside eval inside $(...)) beyond this depth are refused.
inline constexpr int kMaxNesting = 32;
// Bound on analysis steps (commands visited, loop iterations): defeats exponential inputs
// without capping the number of commands an ordinary long script may hold.
inline constexpr long kMaxSteps = 250'000;

void AnalyzeScript(std::string_view command, Findings& findings,
                   std::vector<SimpleCommand>& commands);

}  // namespace clawtools::execpolicy
