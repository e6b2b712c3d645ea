#include "execpolicy/rules.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace clawtools::execpolicy {

using namespace std::string_view_literals;

const std::vector<GroupInfo>& RuleGroups() {
  static const std::vector<GroupInfo> groups = {
      {"destructive_fs", true,
       "recursive or forced deletion of /, ~, system paths, .. (rm, find -delete, mv, shred, del "
       "/f)"},
      {"disk", true, "mkfs, dd of=/dev/..., writes to block devices, partitioning, wipefs"},
      {"system_control", true,
       "shutdown, reboot, poweroff, halt, init 0/6, systemctl poweroff/suspend, sysrq"},
      {"process_control", true, "kill -9 -1, kill 1, killall, pkill"},
      {"fork_bomb", true, ":(){ :|:& };:, recursive functions in pipes, endless spawning loops"},
      {"remote_exec", true, "curl|sh, bash <(curl), $(curl) as a command, download then run"},
      {"reverse_shell", true,
       "/dev/tcp, nc -e, socat exec:, shells wired to sockets, interpreter sockets"},
      {"eval_injection", true, "eval of unknown text, decode chains into shells, dynamic commands"},
      {"privilege_escalation", true,
       "sudo, su, doas, pkexec, runuser, nsenter, unshare, mount, setcap, setuid bits"},
      {"env_dump", true,
       "env, printenv, set, export -p, /proc/*/environ, interpreter environment dumps"},
      {"secret_read", true,
       "~/.ssh keys, /etc/shadow, cloud and registry credentials, our data directory"},
      {"dangerous_paths", true,
       "chmod/chown of system paths, writes into /etc /usr /boot /sys /dev, chmod +x in /tmp"},
      {"package_install", true, "pip/npm/apt/... install: asks rather than denies"},
      {"persistence", true,
       "crontab, writes to shell rc files, authorized_keys, systemd units, systemctl enable"},
      {"container_escape", true,
       "docker run --privileged, host mounts, docker.sock, /proc/sys and /sys writes"},
      {"code_injection_env", true,
       "LD_PRELOAD=, BASH_ENV=, GIT_EXTERNAL_DIFF=, git -c core.sshCommand, rg --pre, sed e, tar "
       "--to-command"},
      {"data_exfiltration", true,
       "uploads with curl/wget, cloud metadata endpoints, DNS tools with substitutions"},
      {"network_recon", true,
       "nmap and other scanners, tunnels (ngrok, chisel), ssh/scp to remote hosts (ask)"},
      {"crypto_mining", true, "xmrig and other miners, stratum+tcp:// pools"},
      {"network_tools", false,
       "off by default: every network client (curl, wget, ssh, nc, git clone) asks"},
  };
  return groups;
}

bool IsShell(std::string_view p) {
  static const std::unordered_set<std::string_view> kShells = {
      "sh"sv,   "bash"sv,  "zsh"sv,  "dash"sv, "ksh"sv,   "ash"sv,  "mksh"sv,      "yash"sv,
      "fish"sv, "rbash"sv, "tcsh"sv, "csh"sv,  "pdksh"sv, "posh"sv, "busybox-sh"sv};
  return kShells.contains(p);
}

namespace {

// Bit i stands for the i-th check of the concatenated tables.
using RuleSet = uint64_t;

class RuleIndex {
 public:
  RuleIndex() {
    for (std::span<const Rule> table :
         {DestructiveRules(), SystemRules(), PathRules(), NetworkRules(), InjectionRules()}) {
      rules_.insert(rules_.end(), table.begin(), table.end());
    }
    // Thrown out of AnalyzeCommand's first call, which then denies (fail closed).
    if (rules_.size() > std::numeric_limits<RuleSet>::digits)
      throw std::length_error("more rule checks than a RuleSet holds");
    for (size_t i = 0; i < rules_.size(); ++i) {
      const RuleSet bit = RuleSet{1} << i;
      const Rule& rule = rules_[i];
      if (rule.programs.empty()) every_ |= bit;
      if (rule.redirects) with_redirects_ |= bit;
      for (std::string_view names = rule.programs; !names.empty();) {
        const size_t space = std::min(names.find(' '), names.size());
        const std::string_view name = names.substr(0, space);
        names.remove_prefix(std::min(space + 1, names.size()));
        if (name.ends_with('*')) {
          prefixes_.emplace_back(name.substr(0, name.size() - 1), bit);
        } else if (!name.empty()) {
          by_name_[name] |= bit;
        }
      }
    }
  }

  RuleSet For(const Invocation& inv, std::string_view program) const {
    RuleSet set = every_;
    if (!inv.redirects.empty()) set |= with_redirects_;
    if (auto it = by_name_.find(program); it != by_name_.end()) set |= it->second;
    for (const auto& [prefix, bits] : prefixes_) {
      if (program.starts_with(prefix)) set |= bits;
    }
    return set;
  }

  const Rule& operator[](size_t i) const { return rules_[i]; }

 private:
  std::vector<Rule> rules_;
  RuleSet every_ = 0, with_redirects_ = 0;
  std::unordered_map<std::string_view, RuleSet> by_name_;
  std::vector<std::pair<std::string_view, RuleSet>> prefixes_;
};

}  // namespace

void ApplyRules(const Invocation& inv, Findings& out) {
  if (out.denied()) return;
  static const RuleIndex index;
  const RuleInput in(inv);
  for (RuleSet set = index.For(inv, in.program); set != 0 && !out.denied(); set &= set - 1) {
    index[std::countr_zero(set)].check(in, out);
  }
}

}  // namespace clawtools::execpolicy
