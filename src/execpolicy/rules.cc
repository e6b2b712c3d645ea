#include "execpolicy/rules.h"

#include <algorithm>

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
  for (std::string_view s : std::initializer_list<std::string_view>{
           "sh"sv, "bash"sv, "zsh"sv, "dash"sv, "ksh"sv, "ash"sv, "mksh"sv, "yash"sv, "fish"sv,
           "rbash"sv, "tcsh"sv, "csh"sv, "pdksh"sv, "posh"sv, "busybox-sh"sv}) {
    if (p == s) return true;
  }
  return false;
}

bool ProgramIs(const Invocation& inv, std::initializer_list<std::string_view> names) {
  const std::string p = inv.Program();
  return std::find(names.begin(), names.end(), p) != names.end();
}

void ApplyRules(const Invocation& inv, Findings& out) {
  CheckDestructive(inv, out);
  CheckSystem(inv, out);
  CheckPaths(inv, out);
  CheckNetwork(inv, out);
  CheckInjection(inv, out);
}

}  // namespace clawtools::execpolicy
