// system_control, process_control, privilege_escalation and container_escape: the machine as a
// whole rather than files.
#include <algorithm>
#include <cctype>

#include "execpolicy/args.h"
#include "execpolicy/paths.h"
#include "execpolicy/rules.h"

namespace clawtools::execpolicy {

using namespace std::string_view_literals;
namespace {

bool AnyWord(const Invocation& inv, size_t from, std::initializer_list<std::string_view> words) {
  for (size_t i = from; i < inv.argv.size(); ++i) {
    if (std::find(words.begin(), words.end(), inv.Word(i)) != words.end()) return true;
  }
  return false;
}

// The first operand: systemctl's verb, docker's subcommand.
std::string Verb(const Invocation& inv, size_t from = 1) {
  for (size_t i = from; i < inv.argv.size(); ++i) {
    if (!inv.Word(i).starts_with("-")) return inv.Word(i);
  }
  return "";
}

void SystemControl(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  constexpr std::string_view g = "system_control";
  const std::string& m = inv.Canonical();
  if (p == "shutdown" || p == "reboot" || p == "poweroff" || p == "halt" || p == "kexec" ||
      p == "Stop-Computer" || p == "Restart-Computer") {
    return out.Deny(g, "power", std::string(p) + " stops or restarts the machine", m);
  }
  if ((p == "init" || p == "telinit") && AnyWord(inv, 1, {"0"sv, "6"sv})) {
    return out.Deny(g, "runlevel",
                    std::string(p) + " " + Verb(inv) + " halts or reboots the machine", m);
  }
  if (p == "systemctl" || p == "loginctl") {
    const std::string verb = Verb(inv);
    for (std::string_view v : std::initializer_list<std::string_view>{
             "poweroff"sv, "reboot"sv, "halt"sv, "suspend"sv, "hibernate"sv, "hybrid-sleep"sv,
             "suspend-then-hibernate"sv, "kexec"sv, "rescue"sv, "emergency"sv, "isolate"sv,
             "soft-reboot"sv, "default"sv, "exit"sv}) {
      if (verb == v)
        return out.Deny(g, "systemctl_power",
                        std::string(p) + " " + verb + " changes the machine's state", m);
    }
    if (verb == "stop" || verb == "kill" || verb == "mask" || verb == "disable") {
      return out.Ask(g, "systemctl_stop", "systemctl " + verb + " stops a system service", m);
    }
  }
  if (p == "sysctl" && AnyWord(inv, 1, {"-w"sv, "--write"sv, "-p"sv, "--load"sv})) {
    return out.Ask(g, "sysctl_write", "sysctl changes kernel parameters", m);
  }
  if (p == "swapoff") return out.Ask(g, "swapoff", "swapoff disables swap", m);
}

void ProcessControl(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  constexpr std::string_view g = "process_control";
  const std::string& m = inv.Canonical();
  if (p == "killall5") return out.Deny(g, "kill_all", "killall5 signals every process", m);
  if (p == "kill") {
    bool sigkill = false;
    size_t i = 1;
    if (i < inv.argv.size() && inv.Word(i).starts_with("-") && inv.Word(i) != "--") {
      const std::string sig = inv.Word(i);
      if (sig == "-s" || sig == "-n") {
        sigkill = i + 1 < inv.argv.size() && (inv.Word(i + 1) == "9" || inv.Word(i + 1) == "KILL" ||
                                              inv.Word(i + 1) == "SIGKILL");
        i += 2;
      } else {
        sigkill = sig == "-9" || sig == "-KILL" || sig == "-SIGKILL";
        ++i;
      }
    }
    for (; i < inv.argv.size(); ++i) {
      const std::string& pid = inv.Word(i);
      if (pid == "--") continue;
      if (pid == "-1" || pid == "1" || pid == "0") {
        return out.Deny(g, "kill_all", "kill " + pid + " signals every process or init", m);
      }
    }
    if (sigkill) return out.Ask(g, "kill_9", "kill -9 terminates a process without cleanup", m);
  }
  if (p == "pkill" || p == "killall")
    return out.Ask(g, "kill_by_name", std::string(p) + " signals every process matching a name", m);
}

bool SetuidMode(const std::string& mode) {
  if (mode.size() == 4 &&
      std::all_of(mode.begin(), mode.end(), [](char c) { return c >= '0' && c <= '7'; })) {
    return mode[0] == '4' || mode[0] == '2' || mode[0] == '6';
  }
  return mode.find("+s") != std::string::npos || mode.find("=s") != std::string::npos;
}

void PrivilegeEscalation(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  constexpr std::string_view g = "privilege_escalation";
  const std::string& m = inv.Canonical();
  for (std::string_view s :
       {"sudo", "su", "doas", "pkexec", "runuser", "run0", "nsenter", "unshare", "capsh", "setcap",
        "mount", "umount", "visudo", "sudoedit", "setpriv", "newuidmap", "newgidmap"}) {
    if (p != s) continue;
    // `mount` alone lists mounts.
    if (p == "mount" && (inv.argv.size() == 1 || (inv.argv.size() == 2 && inv.Word(1) == "-l")))
      return;
    return out.Deny(g, p, std::string(p) + " runs with or changes privileges", m);
  }
  if (p == "chmod") {
    ParsedArgs a = ParseArgs(inv.argv, 1, {"", {{"recursive", 'R'}, {"reference", 0, true}}});
    if (!a.operands.empty() && SetuidMode(inv.Word(a.operands[0]))) {
      return out.Deny(g, "setuid", "chmod sets a setuid/setgid bit", m);
    }
  }
  if (p == "useradd" || p == "adduser" || p == "usermod" || p == "passwd" || p == "chpasswd" ||
      p == "gpasswd" || p == "groupadd" || p == "userdel" || p == "deluser") {
    return out.Deny(g, "accounts", std::string(p) + " changes user accounts or groups", m);
  }
}

bool HostMount(const std::string& spec) {
  std::string src = spec.substr(0, spec.find(':'));
  if (spec.find("source=") != std::string::npos || spec.find("src=") != std::string::npos) {
    size_t at = spec.find("source=") != std::string::npos ? spec.find("source=") + 7
                                                          : spec.find("src=") + 4;
    src = spec.substr(at, spec.find(',', at) - at);
  }
  if (src.find("docker.sock") != std::string::npos) return true;
  Field f{src};
  return src == "/" ||
         (IsCriticalPath(f) && src.starts_with("/") && !src.starts_with("/tmp/") &&
          !src.starts_with("/home/")) ||
         src.starts_with("~");
}

constexpr std::string_view kContainer = "container_escape";

void RuntimeSocket(const RuleInput& in, Findings& out) {
  for (const Field& f : in.inv.argv) {
    if (f.text.find(".sock") == std::string::npos) continue;
    if (f.text.find("docker.sock") != std::string::npos ||
        f.text.find("containerd.sock") != std::string::npos ||
        f.text.find("podman.sock") != std::string::npos) {
      return out.Deny(kContainer, "runtime_socket",
                      "the container runtime socket gives root on the host", in.inv.Canonical());
    }
  }
}

void ContainerFlags(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  constexpr std::string_view g = kContainer;
  const std::string& m = inv.Canonical();
  const std::string verb = Verb(inv);
  if (verb != "run" && verb != "create" && verb != "exec" && verb != "container") return;
  for (size_t i = 1; i < inv.argv.size(); ++i) {
    const std::string& w = inv.Word(i);
    auto value = [&]() -> std::string {
      if (size_t eq = w.find('='); eq != std::string::npos) return w.substr(eq + 1);
      return i + 1 < inv.argv.size() ? inv.Word(i + 1) : "";
    };
    if (w == "--privileged")
      return out.Deny(g, "privileged", "a privileged container controls the host", m);
    for (std::string_view ns : std::initializer_list<std::string_view>{
             "--pid"sv, "--ipc"sv, "--userns"sv, "--uts"sv, "--cgroupns"sv}) {
      if (w.starts_with(ns) && value() == "host") {
        return out.Deny(
            g, "host_namespace",
            "the container shares the host's " + std::string(ns.substr(2)) + " namespace", m);
      }
    }
    if (w.starts_with("--cap-add")) {
      std::string cap = value();
      std::transform(cap.begin(), cap.end(), cap.begin(), ::toupper);
      for (std::string_view c :
           {"ALL", "SYS_ADMIN", "SYS_PTRACE", "SYS_MODULE", "DAC_READ_SEARCH", "SYS_RAWIO"}) {
        if (cap.find(c) != std::string::npos)
          return out.Deny(g, "capability", "the container gets " + cap, m);
      }
    }
    if (w.starts_with("--security-opt") && (value().find("unconfined") != std::string::npos ||
                                            value().find("disable") != std::string::npos)) {
      return out.Deny(g, "unconfined", "the container runs without its security profile", m);
    }
    if (w.starts_with("--device"))
      return out.Deny(g, "device", "the container gets a host device", m);
    if ((w == "-v" || w.starts_with("--volume") || w.starts_with("--mount")) &&
        HostMount(value())) {
      return out.Deny(g, "host_mount", "the container mounts " + value() + " from the host", m);
    }
    if (w.starts_with("-v") && w.size() > 2 && HostMount(w.substr(2))) {
      return out.Deny(g, "host_mount", "the container mounts " + w.substr(2) + " from the host", m);
    }
  }
}

void KernelWrites(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  auto check = [&](const Field& f) {
    const std::string t = NormalizePath(f.text);
    if (t == "/proc/sysrq-trigger") {
      out.Deny("system_control", "sysrq", "writing to /proc/sysrq-trigger can halt the machine",
               inv.Canonical(true));
      return true;
    }
    if (t.starts_with("/proc/sys/") || t.starts_with("/sys/") ||
        t.find("release_agent") != std::string::npos ||
        t.find("core_pattern") != std::string::npos) {
      out.Deny("container_escape", "kernel_write",
               "writing " + t + " changes the kernel or escapes a container", inv.Canonical(true));
      return true;
    }
    return false;
  };
  for (const RedirectInfo& r : inv.redirects) {
    if (r.IsWrite() && check(r.target)) return;
  }
  const std::string_view p = in.program;
  if (p == "tee" || p == "cp" || p == "dd") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      Field f = inv.argv[i];
      if (f.text.starts_with("of=")) f.text = f.text.substr(3);
      if (!f.text.starts_with("-") && (p != "cp" || i + 1 == inv.argv.size()) && check(f)) return;
    }
  }
}

}  // namespace

std::span<const Rule> SystemRules() {
  static constexpr Rule kRules[] = {
      {KernelWrites, "tee cp dd", /*redirects=*/true},
      {SystemControl,
       "shutdown reboot poweroff halt kexec Stop-Computer Restart-Computer init telinit systemctl "
       "loginctl sysctl swapoff"},
      {ProcessControl, "killall5 kill pkill killall"},
      {PrivilegeEscalation,
       "sudo su doas pkexec runuser run0 nsenter unshare capsh setcap mount umount visudo sudoedit "
       "setpriv newuidmap newgidmap chmod useradd adduser usermod passwd chpasswd gpasswd groupadd "
       "userdel deluser"},
      {RuntimeSocket, ""},
      {ContainerFlags, "docker podman nerdctl"},
  };
  return kRules;
}

}  // namespace clawtools::execpolicy
