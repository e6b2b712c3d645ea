// Allowlist rules: argv prefixes matched on the parsed command (Codex-style prefix rules),
// never on the raw text, a hash of it or a basename. `git status` allows `git status -s` but
// not `git push`, `./git status` or `git status; rm -rf ~` (the analyser reports `rm` as a
// command of its own, and every command must match a rule).
//
// A rule that would trust a shell, an interpreter or a wrapper as such (`bash`, `sh -c`,
// `python`, `env`, `sudo`, `xargs`, ...) is refused: it would approve every command written
// through it. Such a program is accepted only with an operand that makes the rule specific
// (`python3 manage.py`, `bash -c 'make test'`), and for wrappers the wrapped command must pass
// the same check (`sudo apt` yes, `sudo bash` no).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/json.h"

namespace clawtools {

struct PrefixRule {
  int64_t id = 0;        // store id; 0 for rules from the config file
  std::string agent_id;  // "" with source "config": every agent
  std::vector<std::string> argv_prefix;
  std::optional<std::string> cwd;  // set: only commands run in exactly this directory
  std::string source;              // "config", "approval:<request id>", "cli"
  int64_t created_at = 0;          // Unix ms

  Json ToJson() const;
};

// kInvalidArgument with the reason when `prefix` trusts too much (see the file comment).
Status ValidatePrefix(std::span<const std::string> prefix);

// True when argv starts with the rule's prefix, element by element, and (when the rule is
// bound to a directory) `cwd` is that directory.
bool RuleMatches(const PrefixRule& rule, std::span<const std::string> argv, std::string_view cwd);

// Splits a config pattern ("git status", "npm run 'build:prod'") into words: blanks separate,
// single and double quotes group, backslash escapes. Glob characters outside quotes are an
// error: the patterns are prefixes, not GoClaw's globs, and a silently inert "git*" would be
// worse than a load failure.
Expected<std::vector<std::string>> ParsePattern(std::string_view pattern);

// The prefix rendered as a shell-quoted command line ("git commit -m 'a b'").
std::string JoinArgv(std::span<const std::string> argv);

}  // namespace clawtools
