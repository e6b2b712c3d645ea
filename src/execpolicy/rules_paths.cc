// dangerous_paths, secret_read, persistence and env_dump: what is read or written, wherever
// the path appears (operand, option value, redirection).
#include <algorithm>

#include "execpolicy/args.h"
#include "execpolicy/paths.h"
#include "execpolicy/rules.h"

namespace clawtools::execpolicy {

using namespace std::string_view_literals;
namespace {

// Files a command writes: output redirections, tee operands, cp/mv/ln/install destinations,
// sed -i and dd of= targets.
std::vector<Field> WrittenFiles(const Invocation& inv) {
  std::vector<Field> out;
  for (const RedirectInfo& r : inv.redirects) {
    if (r.IsWrite()) out.push_back(r.target);
  }
  if (inv.argv.empty()) return out;
  const std::string_view p = inv.Program();
  if (p == "tee") {
    ParsedArgs a = ParseArgs(inv.argv, 1, {});
    for (size_t i : a.operands) out.push_back(inv.argv[i]);
  } else if (p == "cp" || p == "mv" || p == "ln" || p == "install" || p == "rsync") {
    ParsedArgs a = ParseArgs(inv.argv, 1, {"tSmogeB", {{"target-directory", 't', true}}});
    if (auto t = a.Value('t'))
      out.push_back(Field{*t});
    else if (a.operands.size() >= 2)
      out.push_back(inv.argv[a.operands.back()]);
  } else if (p == "sed" || p == "perl") {
    const bool in_place = std::any_of(inv.argv.begin() + 1, inv.argv.end(), [](const Field& f) {
      return f.text.starts_with("-i") || f.text.starts_with("--in-place") ||
             (f.text.size() > 1 && f.text[0] == '-' && f.text[1] != '-' &&
              f.text.find('i') != std::string::npos);
    });
    if (in_place) {
      ParsedArgs a =
          ParseArgs(inv.argv, 1, {"ef", {{"expression", 'e', true}, {"file", 'f', true}}});
      const bool script_in_option = a.Has('e') || a.Has('f');
      for (size_t k = script_in_option ? 0 : 1; k < a.operands.size(); ++k)
        out.push_back(inv.argv[a.operands[k]]);
    }
  } else if (p == "dd") {
    for (const Field& f : inv.argv) {
      if (f.text.starts_with("of=")) out.push_back(Field{f.text.substr(3), f.dynamic, f.glob});
    }
  } else if (p == "truncate" || p == "touch") {
    // truncate and touch: operands are written (touch only creates or updates times).
    if (p == "truncate") {
      ParsedArgs a = ParseArgs(inv.argv, 1, {"sr"});
      for (size_t i : a.operands) out.push_back(inv.argv[i]);
    }
  }
  return out;
}

void SystemWrites(const RuleInput& in, Findings& out) {
  for (const Field& f : in.Written()) {
    if (IsSystemWritePath(f) && !IsBlockDevice(f) && !IsPersistencePath(f)) {
      return out.Deny("dangerous_paths", "write_system",
                      "writes to " + f.text + ", a system location", in.inv.Canonical(true));
    }
  }
}

void ModeChanges(const RuleInput& in, Findings& out) {
  constexpr std::string_view g = "dangerous_paths";
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  ParsedArgs a = ParseArgs(inv.argv, 1, {"", {{"recursive", 'R'}, {"reference", 0, true}}});
  for (size_t k = 1; k < a.operands.size(); ++k) {
    const Field& f = inv.argv[a.operands[k]];
    if (IsSystemWritePath(f) || (a.Has('R') && IsCriticalPath(f))) {
      return out.Deny(g, std::string(p) + "_system",
                      std::string(p) + " changes " + f.text + ", a system path", inv.Canonical());
    }
    const std::string n = NormalizePath(f.text);
    if (p == "chmod" && inv.Word(a.operands[0]).find('x') != std::string::npos &&
        (n.starts_with("/tmp/") || n.starts_with("/var/tmp/") || n.starts_with("/dev/shm/"))) {
      return out.Deny(g, "chmod_exec_tmp", "chmod +x in a shared temporary directory",
                      inv.Canonical());
    }
  }
}

void SecretRead(const RuleInput& in, Findings& out) {
  constexpr std::string_view g = "secret_read";
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  // Listing, creating and fixing permissions reveal nothing.
  for (std::string_view ok : std::initializer_list<std::string_view>{
           "ls"sv, "stat"sv, "chmod"sv, "mkdir"sv, "test"sv, "["sv, "ssh-keygen"sv, "touch"sv}) {
    if (p == ok) return;
  }
  const bool ssh_family = p == "ssh" || p == "scp" || p == "sftp" || p == "ssh-add" || p == "git";
  for (size_t i = 1; i < inv.argv.size(); ++i) {
    if (ssh_family && (inv.Word(i - 1) == "-i" || p == "ssh-add"))
      continue;  // the key is used, not read out
    if (MentionsSecretPath(inv.argv[i])) {
      return out.Deny(g, "credential_file", "reads the credential file " + inv.Word(i),
                      inv.Canonical());
    }
  }
  for (const RedirectInfo& r : inv.redirects) {
    if (r.IsRead() && MentionsSecretPath(r.target)) {
      return out.Deny(g, "credential_file", "reads the credential file " + r.target.text,
                      inv.Canonical(true));
    }
  }
}

void StartupFiles(const RuleInput& in, Findings& out) {
  for (const Field& f : in.Written()) {
    if (IsPersistencePath(f)) {
      return out.Deny("persistence", "startup_file",
                      "writes to " + f.text + ", which runs code later", in.inv.Canonical(true));
    }
  }
}

void Scheduling(const RuleInput& in, Findings& out) {
  constexpr std::string_view g = "persistence";
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  const std::string& m = inv.Canonical();
  if (p == "crontab") {
    ParsedArgs a = ParseArgs(inv.argv, 1, {"u"});
    if (!(a.Has('l') && a.operands.empty()))
      return out.Deny(g, "crontab", "crontab installs scheduled commands", m);
  }
  if (p == "systemctl" && std::any_of(inv.argv.begin(), inv.argv.end(), [](const Field& f) {
        return f.text == "enable" || f.text == "link" || f.text == "preset" || f.text == "reenable";
      })) {
    return out.Deny(g, "systemctl_enable", "systemctl enable starts a service at every boot", m);
  }
  if (p == "at" || p == "batch" || p == "update-rc.d" || p == "chkconfig" ||
      (p == "launchctl" && inv.argv.size() > 1 &&
       (inv.Word(1) == "load" || inv.Word(1) == "bootstrap")) ||
      (p == "systemd-run" && std::any_of(inv.argv.begin(), inv.argv.end(), [](const Field& f) {
         return f.text.starts_with("--on-");
       }))) {
    return out.Ask(g, "scheduled_job", std::string(p) + " schedules a command to run later", m);
  }
}

void ProcEnviron(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  for (size_t i = 1; i < inv.argv.size(); ++i) {
    if (MentionsProcEnviron(inv.argv[i]))
      return out.Deny("env_dump", "proc_environ", "reads a process environment",
                      inv.Canonical(true));
  }
  for (const RedirectInfo& r : inv.redirects) {
    if (r.IsRead() && MentionsProcEnviron(r.target))
      return out.Deny("env_dump", "proc_environ", "reads a process environment",
                      inv.Canonical(true));
  }
}

void EnvDump(const RuleInput& in, Findings& out) {
  constexpr std::string_view g = "env_dump";
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  if (p == "env") {
    // With a command, env runs it (the analyzer looks at that); without one it prints everything.
    size_t i = 1;
    bool clear = false;
    for (; i < inv.argv.size(); ++i) {
      const std::string& a = inv.Word(i);
      if (a == "-u" || a == "-C" || a == "--unset" || a == "--chdir") {
        ++i;
        continue;
      }
      if (a == "-i" || a == "--ignore-environment" || a == "-") clear = true;
      if (!a.starts_with("-") && a.find('=') == std::string::npos) return;
    }
    if (!clear)
      return out.Deny(g, "env", "env without a command prints every environment variable",
                      inv.Canonical(true));
  }
  if (p == "printenv") {
    ParsedArgs a = ParseArgs(inv.argv, 1, {});
    if (a.operands.empty())
      return out.Deny(g, "printenv", "printenv prints every environment variable",
                      inv.Canonical(true));
    for (size_t i : a.operands) {
      if (IsSecretVariableName(inv.Word(i)) &&
          std::ranges::find(out.provided_variables(), inv.Word(i)) ==
              out.provided_variables().end())
        return out.Deny(g, "secret_variable", "prints the secret variable " + inv.Word(i),
                        inv.Canonical(true));
    }
  }
  if ((p == "set" && inv.argv.size() == 1) ||
      (p == "export" && (inv.argv.size() == 1 || (inv.argv.size() == 2 && inv.Word(1) == "-p")))) {
    return out.Deny(g, p, std::string(p) + " without arguments prints every variable",
                    inv.Canonical(true));
  }
  if ((p == "declare" || p == "typeset") &&
      std::all_of(inv.argv.begin() + 1, inv.argv.end(),
                  [](const Field& f) { return f.text.starts_with("-"); }) &&
      std::none_of(inv.argv.begin() + 1, inv.argv.end(),
                   [](const Field& f) { return f.text.find('f') != std::string::npos; })) {
    return out.Deny(g, p, std::string(p) + " without names prints every variable",
                    inv.Canonical(true));
  }
  if (p == "compgen" && std::any_of(inv.argv.begin(), inv.argv.end(), [](const Field& f) {
        return f.text == "-e" || f.text == "-v";
      })) {
    return out.Deny(g, "compgen", "compgen -e lists the environment", inv.Canonical(true));
  }
  if (p == "jq" || p == "gojq" || p == "yq") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      if (w == "env" || w.find("$ENV") != std::string::npos ||
          w.find("env.") != std::string::npos || w.find("| env") != std::string::npos ||
          w.find("(env") != std::string::npos) {
        return out.Deny(g, "jq_env", std::string(p) + " prints the environment",
                        inv.Canonical(true));
      }
    }
  }
  if (p == "ps") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      if (!w.starts_with("-") && w.find('e') != std::string::npos &&
          w.find_first_not_of("auxefwlsjvrTtUgSchmnp") == std::string::npos) {
        return out.Deny(g, "ps_environment", "ps " + w + " shows other processes' environments",
                        inv.Canonical(true));
      }
    }
  }
  if (p == "echo" || p == "printf" || p == "print" || p == "logger") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      if (inv.argv[i].taint & kTaintSecretVar) {
        return out.Deny(g, "secret_variable",
                        "prints a secret environment variable (" + inv.Word(i) + ")",
                        inv.Canonical(true));
      }
    }
  }
}

}  // namespace

const std::vector<Field>& RuleInput::Written() const {
  if (!written_) written_ = WrittenFiles(inv);
  return *written_;
}

std::span<const Rule> PathRules() {
  static constexpr Rule kRules[] = {
      {StartupFiles, ""},
      {Scheduling, "crontab systemctl at batch update-rc.d chkconfig launchctl systemd-run"},
      {SystemWrites, ""},
      {ModeChanges, "chmod chown chgrp chattr setfacl"},
      {SecretRead, ""},
      {ProcEnviron, ""},
      {EnvDump,
       "env printenv set export declare typeset compgen jq gojq yq ps echo printf print logger"},
  };
  return kRules;
}

}  // namespace clawtools::execpolicy
