// code_injection_env (variables and options that make an innocent program run other code) and
// package_install (asks: installing runs the package's own scripts).
#include <algorithm>
#include <cctype>

#include "execpolicy/rules.h"

namespace clawtools::execpolicy {

using namespace std::string_view_literals;
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

constexpr std::string_view kInjectionVars[] = {"LD_PRELOAD",
                                               "LD_LIBRARY_PATH",
                                               "LD_AUDIT",
                                               "DYLD_INSERT_LIBRARIES",
                                               "DYLD_LIBRARY_PATH",
                                               "BASH_ENV",
                                               "ENV",
                                               "PROMPT_COMMAND",
                                               "PS4",
                                               "SHELLOPTS",
                                               "BASHOPTS",
                                               "GIT_EXTERNAL_DIFF",
                                               "GIT_DIFF_OPTS",
                                               "GIT_SSH_COMMAND",
                                               "GIT_SSH",
                                               "GIT_PROXY_COMMAND",
                                               "GIT_ASKPASS",
                                               "GIT_EXEC_PATH",
                                               "GIT_CONFIG_GLOBAL",
                                               "GIT_CONFIG_PARAMETERS",
                                               "PERL5OPT",
                                               "RUBYOPT",
                                               "LESSOPEN",
                                               "LESSCLOSE",
                                               "MANPAGER",
                                               "BROWSER",
                                               "PYTHONSTARTUP",
                                               "PYTHONINSPECT",
                                               "NODE_OPTIONS",
                                               "JAVA_TOOL_OPTIONS",
                                               "_JAVA_OPTIONS",
                                               "GCONV_PATH",
                                               "HOSTALIASES",
                                               "RESOLV_HOST_CONF"};

// git configuration keys whose value is a command git runs.
bool GitExecKey(std::string key, const std::string& value) {
  key = Lower(key);
  for (std::string_view k :
       {"core.sshcommand", "core.pager", "core.editor", "core.fsmonitor", "core.hookspath",
        "core.gitproxy", "core.askpass", "diff.external", "uploadpack.packobjectshook",
        "sequence.editor", "gpg.program", "gpg.ssh.program", "protocol.ext.allow",
        "credential.helper", "pager.", "interactive.difffilter"}) {
    if (key.starts_with(k)) return true;
  }
  if (key.starts_with("alias.") && value.starts_with("!")) return true;
  if (key.starts_with("filter.") || (key.starts_with("diff.") && key.ends_with(".textconv")) ||
      (key.starts_with("merge.") && key.ends_with(".driver"))) {
    return true;
  }
  return false;
}

// sed's `e` command and the `e` flag of s///: the pattern space is run by a shell.
bool SedExecutes(const std::string& script) {
  size_t i = 0;
  while (i < script.size()) {
    while (i < script.size() && (std::isspace(static_cast<unsigned char>(script[i])) ||
                                 script[i] == ';' || script[i] == '{' || script[i] == '}' ||
                                 std::isdigit(static_cast<unsigned char>(script[i])) ||
                                 script[i] == ',' || script[i] == '$' || script[i] == '!')) {
      ++i;
    }
    if (i >= script.size()) break;
    if (script[i] == '/') {  // address /re/
      size_t end = script.find('/', i + 1);
      if (end == std::string::npos) return false;
      i = end + 1;
      continue;
    }
    const char cmd = script[i];
    if (cmd == 'e') return true;
    if (cmd == 's' || cmd == 'y') {
      if (i + 1 >= script.size()) return false;
      const char d = script[i + 1];
      size_t j = i + 2;
      for (int parts = 0; parts < 2 && j < script.size(); ++j) {
        if (script[j] == '\\') {
          ++j;
          continue;
        }
        if (script[j] == d) ++parts;
      }
      while (j < script.size() && script[j] != ';' && script[j] != '\n' && script[j] != '}') {
        if (cmd == 's' && script[j] == 'e') return true;
        if (cmd == 's' && script[j] == 'w') break;
        ++j;
      }
      i = script.find_first_of(";\n}", j);
      if (i == std::string::npos) break;
      continue;
    }
    i = script.find_first_of(";\n", i);
    if (i == std::string::npos) break;
  }
  return false;
}

constexpr std::string_view kInjection = "code_injection_env";

// NAME=value, as a prefix or an export: true (and a finding) when NAME makes programs run code.
bool InjectionVariable(const Invocation& inv, const std::string& name, const std::string& value,
                       Findings& out) {
  for (auto v : kInjectionVars) {
    if (name == v &&
        !(name == "PS4" && value.find("$(") == std::string::npos &&
          value.find('`') == std::string::npos) &&
        !(name == "ENV" && value.empty())) {
      out.Deny(kInjection, "env_" + Lower(name), name + "= makes programs load or run other code",
               inv.Canonical());
      return true;
    }
  }
  return false;
}

void EnvPrefixes(const RuleInput& in, Findings& out) {
  for (const auto& [name, value] : in.inv.env) {
    if (InjectionVariable(in.inv, name, value.text, out)) return;
  }
}

void Exports(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  for (size_t i = 1; i < inv.argv.size(); ++i) {
    const std::string& w = inv.Word(i);
    size_t eq = w.find('=');
    if (eq != std::string::npos && InjectionVariable(inv, w.substr(0, eq), w.substr(eq + 1), out))
      return;
  }
}

void PromptExpansion(const RuleInput& in, Findings& out) {
  for (const Field& f : in.inv.argv) {
    if (f.taint & kTaintPrompt)
      return out.Deny(kInjection, "prompt_expansion", "${var@P} runs command substitutions",
                      in.inv.Canonical());
  }
}

void ExecOptions(const RuleInput& in, Findings& out) {
  constexpr std::string_view g = kInjection;
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  const std::string& m = inv.Canonical();
  if (p == "git") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      std::string kv;
      if (w == "-c" || w == "--config-env")
        kv = i + 1 < inv.argv.size() ? inv.Word(i + 1) : "";
      else if (w.starts_with("-c") && w.size() > 2)
        kv = w.substr(2);
      if (!kv.empty()) {
        size_t eq = kv.find('=');
        if (GitExecKey(kv.substr(0, eq), eq == std::string::npos ? "" : kv.substr(eq + 1))) {
          return out.Deny(g, "git_config_exec", "git -c " + kv.substr(0, eq) + " runs a command",
                          m);
        }
      }
      if (w.starts_with("--upload-pack") || w.starts_with("--receive-pack") ||
          w.starts_with("--exec") || w == "-u" || w.find("ext::") != std::string::npos) {
        return out.Deny(g, "git_exec_option", "git " + w + " runs a command", m);
      }
      if (w == "config" && i + 2 < inv.argv.size()) {
        for (size_t k = i + 1; k + 1 < inv.argv.size(); ++k) {
          if (!inv.Word(k).starts_with("-") && GitExecKey(inv.Word(k), inv.Word(k + 1))) {
            return out.Deny(g, "git_config_exec",
                            "git config " + inv.Word(k) + " makes git run a command", m);
          }
        }
      }
    }
  }
  if (p == "rg" || p == "grep" || p == "ugrep") {
    for (const Field& f : inv.argv) {
      if (f.text == "--pre" || f.text.starts_with("--pre="))
        return out.Deny(g, "rg_pre", std::string(p) + " --pre runs a command per file", m);
    }
  }
  if (p == "sort") {
    for (const Field& f : inv.argv) {
      if (f.text.starts_with("--compress-prog"))
        return out.Deny(g, "sort_compress_program", "sort --compress-program runs a command", m);
    }
  }
  if (p == "tar" || p == "bsdtar" || p == "gtar") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      if (w.starts_with("--to-command") || w.starts_with("--checkpoint-action") ||
          w.starts_with("--use-compress-prog") || w.starts_with("--info-script") ||
          w.starts_with("--new-volume-script") || w.starts_with("--rsh-command") || w == "-I" ||
          w == "-F") {
        return out.Deny(g, "tar_exec", "tar " + w + " runs a command", m);
      }
    }
  }
  if (p == "zip") {
    for (const Field& f : inv.argv) {
      if (f.text == "-TT" || f.text.starts_with("--unzip-command"))
        return out.Deny(g, "zip_exec", "zip -TT runs a command", m);
    }
  }
  if (p == "sed" || p == "gsed") {
    bool script_seen = false;
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      std::string script;
      if ((w == "-e" || w == "--expression") && i + 1 < inv.argv.size()) {
        script = inv.Word(++i);
        script_seen = true;
      } else if (w.starts_with("--expression=")) {
        script = w.substr(13);
        script_seen = true;
      } else if (!w.starts_with("-") && !script_seen) {
        script = w;
        script_seen = true;
      }
      if (!script.empty() && SedExecutes(script))
        return out.Deny(g, "sed_exec", "the sed script runs shell commands (e)", m);
    }
  }
  if (p == "man") {
    for (const Field& f : inv.argv) {
      if (f.text.starts_with("--html") || f.text == "-P" || f.text.starts_with("--pager")) {
        return out.Deny(g, "man_exec", "man " + f.text + " runs a command", m);
      }
    }
  }
  if (p == "ssh" || p == "scp" || p == "sftp") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string w =
          Lower(inv.Word(i) == "-o" && i + 1 < inv.argv.size() ? inv.Word(i + 1) : inv.Word(i));
      if (w.find("proxycommand") != std::string::npos ||
          w.find("localcommand") != std::string::npos) {
        return out.Deny(g, "ssh_command_option", "ssh -o ProxyCommand runs a local command", m);
      }
    }
  }
  if (p == "vim" || p == "vi" || p == "nvim" || p == "ex") {
    for (const Field& f : inv.argv) {
      if (f.text.find('!') != std::string::npos && f.text.find("!") < 4) {
        return out.Deny(g, "editor_exec",
                        std::string(p) + " runs a shell command from its command line", m);
      }
    }
  }
  if (p == "history" && inv.argv.size() > 1 &&
      (inv.Word(1) == "-s" || inv.Word(1) == "-a" || inv.Word(1) == "-w" || inv.Word(1) == "-r")) {
    return out.Deny(g, "history_rewrite", "history " + inv.Word(1) + " rewrites the shell history",
                    m);
  }
}

void PackageInstall(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  auto verb_in = [&](size_t from, std::initializer_list<std::string_view> verbs) {
    for (size_t i = from; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      if (w.starts_with("-")) continue;
      return std::find(verbs.begin(), verbs.end(), w) != verbs.end();
    }
    return false;
  };
  auto ask = [&](std::string_view rule) {
    out.Ask(
        "package_install", rule,
        "installs or removes packages (" + std::string(p) + "), which runs their install scripts",
        inv.Canonical());
  };
  const bool python = p.starts_with("python") || p.starts_with("pypy");
  if ((p.starts_with("pip") && p.find_first_not_of("pip0123456789.") == std::string::npos) ||
      (python && inv.argv.size() > 2 && inv.Word(1) == "-m" && inv.Word(2).starts_with("pip"))) {
    if (verb_in(python ? 3 : 1, {"install"sv, "uninstall"sv, "download"sv, "wheel"sv}))
      return ask("pip");
  }
  if (p == "pipx" && verb_in(1, {"install"sv, "run"sv, "inject"sv, "upgrade"sv}))
    return ask("pipx");
  if (p == "uv" && (verb_in(1, {"add"sv, "tool"sv, "sync"sv}) ||
                    (inv.argv.size() > 2 && inv.Word(1) == "pip" && inv.Word(2) == "install")))
    return ask("uv");
  if ((p == "poetry" || p == "pdm") && verb_in(1, {"add"sv, "install"sv, "remove"sv}))
    return ask(p);
  if ((p == "conda" || p == "mamba" || p == "micromamba") &&
      verb_in(1, {"install"sv, "create"sv, "remove"sv, "update"sv}))
    return ask("conda");
  if ((p == "npm" || p == "pnpm" || p == "yarn" || p == "bun" || p == "cnpm") &&
      verb_in(1, {"install"sv, "i"sv, "add"sv, "ci"sv, "uninstall"sv, "remove"sv, "rm"sv, "un"sv,
                  "update"sv, "upgrade"sv, "global"sv, "exec"sv, "dlx"sv, "x"sv, "link"sv})) {
    return ask(p);
  }
  if (p == "npx" || p == "bunx" || p == "pnpx") return ask(p);
  if ((p == "apt" || p == "apt-get" || p == "aptitude" || p == "dnf" || p == "yum" ||
       p == "zypper" || p == "microdnf" || p == "apk" || p == "brew" || p == "snap" ||
       p == "flatpak" || p == "port" || p == "choco" || p == "winget" || p == "scoop" ||
       p == "emerge" || p == "pkg") &&
      verb_in(1, {"install"sv, "remove"sv, "purge"sv, "upgrade"sv, "dist-upgrade"sv,
                  "full-upgrade"sv, "add"sv, "del"sv, "erase"sv, "reinstall"sv, "uninstall"sv,
                  "autoremove"sv, "in"sv, "rm"sv})) {
    return ask("system_package");
  }
  if (p == "pacman" && inv.argv.size() > 1 &&
      (inv.Word(1).starts_with("-S") || inv.Word(1).starts_with("-R") ||
       inv.Word(1).starts_with("-U"))) {
    return ask("system_package");
  }
  if ((p == "dpkg" || p == "rpm") && inv.argv.size() > 1 &&
      (inv.Word(1) == "-i" || inv.Word(1) == "--install" || inv.Word(1).starts_with("-U") ||
       inv.Word(1) == "-e" || inv.Word(1) == "-r" || inv.Word(1) == "-P" ||
       inv.Word(1).starts_with("-i"))) {
    return ask("system_package");
  }
  if ((p == "gem" || p == "cargo" || p == "composer" || p == "nix-env" || p == "opam" ||
       p == "cpan" || p == "cpanm") &&
      verb_in(1, {"install"sv, "require"sv, "uninstall"sv, "-i"sv})) {
    return ask(p);
  }
  if (p == "cpanm") return ask(p);
  if (p == "go" && verb_in(1, {"install"sv, "get"sv})) return ask("go");
}

}  // namespace

std::span<const Rule> InjectionRules() {
  static constexpr Rule kRules[] = {
      {EnvPrefixes, ""},
      {Exports, "export declare typeset local readonly"},
      {PromptExpansion, ""},
      {ExecOptions,
       "git rg grep ugrep sort tar bsdtar gtar zip sed gsed man ssh scp sftp vim vi nvim ex "
       "history"},
      {PackageInstall,
       "pip* python* pypy* pipx uv poetry pdm conda mamba micromamba npm pnpm yarn bun cnpm npx "
       "bunx pnpx apt apt-get aptitude dnf yum zypper microdnf apk brew snap flatpak port choco "
       "winget scoop emerge pkg pacman dpkg rpm gem cargo composer nix-env opam cpan cpanm go"},
  };
  return kRules;
}

}  // namespace clawtools::execpolicy
