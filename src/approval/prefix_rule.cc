#include "approval/prefix_rule.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace clawtools {
namespace {

using namespace std::string_view_literals;

// Programs that run whatever their operands say: trusting them bare trusts everything.
constexpr std::array kShellsAndInterpreters = {
    "sh"sv,      "bash"sv,   "dash"sv,  "zsh"sv,     "ksh"sv,       "mksh"sv,   "ash"sv,
    "fish"sv,    "csh"sv,    "tcsh"sv,  "busybox"sv, "toybox"sv,    "python"sv, "pypy"sv,
    "node"sv,    "nodejs"sv, "perl"sv,  "ruby"sv,    "php"sv,       "lua"sv,    "luajit"sv,
    "deno"sv,    "bun"sv,    "tclsh"sv, "wish"sv,    "osascript"sv, "pwsh"sv,   "powershell"sv,
    "Rscript"sv, "awk"sv,    "gawk"sv,  "mawk"sv,    "nawk"sv,      "expect"sv,
};
// Programs that run another command given as their operands.
constexpr std::array kWrappers = {
    "env"sv,      "sudo"sv,    "doas"sv,    "su"sv,          "runuser"sv,  "pkexec"sv, "xargs"sv,
    "nohup"sv,    "nice"sv,    "ionice"sv,  "timeout"sv,     "stdbuf"sv,   "time"sv,   "command"sv,
    "exec"sv,     "eval"sv,    "builtin"sv, "nsenter"sv,     "chroot"sv,   "setsid"sv, "strace"sv,
    "ltrace"sv,   "unshare"sv, "flock"sv,   "watch"sv,       "taskset"sv,  "chrt"sv,   "script"sv,
    "parallel"sv, "sg"sv,      "newgrp"sv,  "systemd-run"sv, "firejail"sv, "bwrap"sv,
};

// "/usr/bin/python3.11" -> "python": version suffixes must not dodge the list.
std::string_view ProgramName(std::string_view word) {
  if (size_t slash = word.rfind('/'); slash != std::string_view::npos)
    word.remove_prefix(slash + 1);
  while (!word.empty() &&
         (std::isdigit(static_cast<unsigned char>(word.back())) || word.back() == '.')) {
    word.remove_suffix(1);
  }
  return word;
}

bool Contains(std::span<const std::string_view> list, std::string_view name) {
  return std::ranges::find(list, name) != list.end();
}

bool IsAssignment(std::string_view word) {
  size_t eq = word.find('=');
  return eq != std::string_view::npos && eq > 0 && !word.starts_with('-');
}

Status Refuse(std::span<const std::string> prefix, std::string_view why) {
  return Fail(ErrorCode::kInvalidArgument,
              "cannot allowlist \"" + JoinArgv(prefix) + "\": " + std::string(why));
}

}  // namespace

Json PrefixRule::ToJson() const {
  return Json{{"id", id},
              {"agent_id", agent_id},
              {"argv_prefix", argv_prefix},
              {"pattern", JoinArgv(argv_prefix)},
              {"cwd", cwd ? Json(*cwd) : Json(nullptr)},
              {"source", source},
              {"created_at", created_at}};
}

Status ValidatePrefix(std::span<const std::string> prefix) {
  if (prefix.empty() || prefix.front().empty()) return Refuse(prefix, "the rule names no program");
  std::string_view program = ProgramName(prefix.front());
  bool wrapper = Contains(kWrappers, program);
  if (!wrapper && !Contains(kShellsAndInterpreters, program)) return {};
  if (wrapper) {
    // The wrapped command decides: any shell, interpreter or wrapper further on must itself
    // be specific (`timeout 10 bash` is refused), and something must be wrapped at all.
    bool operand = false;
    for (size_t i = 1; i < prefix.size(); ++i) {
      std::string_view inner = ProgramName(prefix[i]);
      if (Contains(kShellsAndInterpreters, inner) || Contains(kWrappers, inner)) {
        if (ValidatePrefix(prefix.subspan(i))) return {};
        return Refuse(prefix, "it would trust whatever " + std::string(inner) + " runs");
      }
      operand = operand || !(prefix[i].starts_with('-') || IsAssignment(prefix[i]));
    }
    if (operand) return {};
    return Refuse(prefix, "a bare wrapper runs any command it is given");
  }
  // A script, module or code string is what makes an interpreter rule specific; options alone
  // (`sh -c`, `python -m`) do not.
  for (size_t i = 1; i < prefix.size(); ++i) {
    if (!prefix[i].starts_with('-')) return {};
  }
  return Refuse(prefix, "a bare shell or interpreter runs any code it is given");
}

bool RuleMatches(const PrefixRule& rule, std::span<const std::string> argv, std::string_view cwd) {
  if (rule.argv_prefix.empty() || argv.size() < rule.argv_prefix.size()) return false;
  if (rule.cwd && *rule.cwd != cwd) return false;
  return std::equal(rule.argv_prefix.begin(), rule.argv_prefix.end(), argv.begin());
}

Expected<std::vector<std::string>> ParsePattern(std::string_view pattern) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (quote == '\'') {
      if (c == '\'')
        quote = 0;
      else
        word += c;
      continue;
    }
    if (c == '\\' && quote != '\'') {
      if (++i == pattern.size()) return Fail(ErrorCode::kInvalidArgument, "trailing backslash");
      word += pattern[i];
      in_word = true;
      continue;
    }
    if (quote == '"') {
      if (c == '"')
        quote = 0;
      else
        word += c;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (c == '*' || c == '?' || c == '[') {
      return Fail(ErrorCode::kInvalidArgument,
                  "glob characters are not supported: rules are argv prefixes (quote them to "
                  "match literally)");
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote != 0) return Fail(ErrorCode::kInvalidArgument, "unterminated quote");
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) return Fail(ErrorCode::kInvalidArgument, "empty pattern");
  return words;
}

std::string JoinArgv(std::span<const std::string> argv) {
  std::string out;
  for (const std::string& w : argv) {
    if (!out.empty()) out += ' ';
    bool plain = !w.empty() && std::ranges::all_of(w, [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) ||
             std::string_view("-_./=:,+@%").find(c) != std::string_view::npos;
    });
    if (plain) {
      out += w;
      continue;
    }
    out += '\'';
    for (char c : w) {
      if (c == '\'')
        out += "'\\''";
      else
        out += c;
    }
    out += '\'';
  }
  return out;
}

}  // namespace clawtools
