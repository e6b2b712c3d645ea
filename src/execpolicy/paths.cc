#include "execpolicy/paths.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <vector>

namespace clawtools::execpolicy {

using namespace std::string_view_literals;
namespace {

constexpr std::string_view kSystemTops[] = {
    "/bin",    "/boot",  "/dev", "/etc", "/home", "/lib",  "/lib32", "/lib64",
    "/libx32", "/media", "/mnt", "/opt", "/proc", "/root", "/run",   "/sbin",
    "/srv",    "/sys",   "/usr", "/var", "/tmp",  "/snap", "/nix"};

// Everything below these is system state.
constexpr std::string_view kSystemTrees[] = {
    "/bin", "/boot", "/etc", "/lib",     "/lib32",   "/lib64",     "/libx32",    "/root", "/sbin",
    "/sys", "/proc", "/usr", "/var/lib", "/var/log", "/var/spool", "/var/cache", "/snap", "/nix"};

// Concrete examples of protected paths, for matching glob operands against.
constexpr std::string_view kGlobProbes[] = {
    "/",    "/bin",   "/boot",  "/dev",      "/etc",     "/etc/passwd", "/etc/shadow", "/home",
    "/lib", "/lib64", "/opt",   "/proc",     "/root",    "/sbin",       "/sys",        "/usr",
    "/var", "~",      "~/.ssh", "~/.bashrc", "/dev/sda", "/dev/nvme0n1"};

constexpr std::string_view kSecretProbes[] = {"~/.ssh/id_rsa",     "~/.ssh/id_ed25519",
                                              "~/.ssh/id_ecdsa",   "~/.aws/credentials",
                                              "/etc/shadow",       "/etc/gshadow",
                                              "/etc/sudoers",      "~/.netrc",
                                              "~/.pgpass",         "~/.git-credentials",
                                              "~/.kube/config",    "~/.docker/config.json",
                                              "/root/.ssh/id_rsa", "~/.clawtools/clawtools.db"};

constexpr std::string_view kSecretFragments[] = {"/etc/shadow",
                                                 "/etc/gshadow",
                                                 "/etc/sudoers",
                                                 "/etc/security/opasswd",
                                                 "/etc/ssl/private",
                                                 ".aws/credentials",
                                                 ".aws/config",
                                                 ".config/gcloud",
                                                 ".azure/",
                                                 ".kube/config",
                                                 ".docker/config.json",
                                                 ".netrc",
                                                 ".pgpass",
                                                 ".git-credentials",
                                                 ".npmrc",
                                                 ".pypirc",
                                                 ".gnupg",
                                                 ".password-store",
                                                 ".vault-token",
                                                 ".clawtools/",
                                                 ".goclaw/",
                                                 "/var/run/secrets/",
                                                 "/run/secrets/",
                                                 ".config/gh/hosts.yml",
                                                 ".cargo/credentials",
                                                 ".terraform.d/credentials",
                                                 ".bash_history",
                                                 ".zsh_history",
                                                 ".psql_history",
                                                 ".mysql_history",
                                                 ".python_history"};

constexpr std::string_view kPersistenceFragments[] = {"~/.bashrc",
                                                      "~/.bash_profile",
                                                      "~/.bash_login",
                                                      "~/.bash_logout",
                                                      "~/.profile",
                                                      "~/.zshrc",
                                                      "~/.zprofile",
                                                      "~/.zshenv",
                                                      "~/.zlogin",
                                                      "~/.config/fish/config.fish",
                                                      "~/.config/autostart",
                                                      "~/.config/systemd/",
                                                      "~/.ssh/authorized_keys",
                                                      "~/.ssh/rc",
                                                      "~/.xinitrc",
                                                      "~/.xprofile",
                                                      "/etc/profile",
                                                      "/etc/bash.bashrc",
                                                      "/etc/bashrc",
                                                      "/etc/zsh/",
                                                      "/etc/environment",
                                                      "/etc/cron",
                                                      "/var/spool/cron",
                                                      "/etc/systemd/",
                                                      "/lib/systemd/system",
                                                      "/usr/lib/systemd/",
                                                      "/etc/init.d/",
                                                      "/etc/rc.local",
                                                      "/etc/ld.so.preload",
                                                      "/etc/sudoers",
                                                      "/etc/passwd",
                                                      "/root/.ssh/authorized_keys",
                                                      "/etc/update-motd.d/",
                                                      "/etc/xdg/autostart"};

bool Under(std::string_view path, std::string_view dir) {
  return path == dir ||
         (path.starts_with(dir) && path.size() > dir.size() && path[dir.size()] == '/');
}

bool GlobMatches(const Field& f, std::initializer_list<std::string_view> extra,
                 const std::string_view* probes, size_t n, bool (*pred)(const std::string&)) {
  const std::string pattern = NormalizePath(f.text);
  for (size_t i = 0; i < n; ++i) {
    std::string probe(probes[i]);
    if (fnmatch(pattern.c_str(), probe.c_str(), FNM_PATHNAME | FNM_PERIOD) == 0 && pred(probe)) {
      return true;
    }
  }
  for (auto e : extra) {
    std::string probe(e);
    if (fnmatch(pattern.c_str(), probe.c_str(), FNM_PATHNAME) == 0 && pred(probe)) return true;
  }
  return false;
}

// /home/NAME/x and /root/x as ~/x: another user's home is as protected as ours.
std::string HomeRelative(const std::string& p) {
  if (p.starts_with("/root/")) return "~/" + p.substr(6);
  for (std::string_view home : std::initializer_list<std::string_view>{"/home/"sv, "/Users/"sv}) {
    if (!p.starts_with(home)) continue;
    size_t slash = p.find('/', home.size());
    if (slash != std::string::npos) return "~" + p.substr(slash);
  }
  return p;
}

bool CriticalText(const std::string& path) {
  const std::string p = HomeRelative(path);
  if (p == "/" || p == "~" || p.starts_with("~/.") || p == "..") return true;
  if (p.starts_with("../")) return true;
  if (p.starts_with("~") && p.find('/') == std::string::npos) return true;  // ~user
  for (auto t : kSystemTops) {
    if (p == t) return true;
  }
  for (auto t : kSystemTrees) {
    if (Under(p, t)) return true;
  }
  for (std::string_view home :
       std::initializer_list<std::string_view>{"/home/"sv, "/Users/"sv}) {  // /home/NAME itself
    if (p.starts_with(home) && p.find('/', home.size()) == std::string::npos) return true;
  }
  return false;
}

bool SecretText(const std::string& p) {
  for (auto frag : kSecretFragments) {
    if (p.find(frag) != std::string::npos) return true;
  }
  // Private keys: anything in .ssh except public keys, known_hosts and config.
  size_t ssh = p.find(".ssh");
  if (ssh != std::string::npos) {
    std::string_view rest = std::string_view(p).substr(ssh + 4);
    if (rest.empty() || rest == "/" || rest == "/*") return true;
    if (rest.starts_with("/")) {
      rest.remove_prefix(1);
      if (!rest.ends_with(".pub") && !rest.starts_with("known_hosts") && rest != "config" &&
          rest != "authorized_keys") {
        return true;
      }
    }
  }
  for (std::string_view key : std::initializer_list<std::string_view>{"id_rsa"sv, "id_ed25519"sv,
                                                                      "id_ecdsa"sv, "id_dsa"sv}) {
    size_t at = p.find(key);
    if (at != std::string::npos && !p.ends_with(".pub")) return true;
  }
  return false;
}

bool PersistenceText(const std::string& path) {
  const std::string p = HomeRelative(path);
  for (auto frag : kPersistenceFragments) {
    if (p.starts_with(frag)) return true;
  }
  return false;
}

bool BlockDeviceText(const std::string& p) {
  for (std::string_view d : std::initializer_list<std::string_view>{
           "/dev/sd"sv, "/dev/hd"sv, "/dev/vd"sv, "/dev/xvd"sv, "/dev/nvme"sv, "/dev/mmcblk"sv,
           "/dev/mapper/"sv, "/dev/md"sv, "/dev/dm-"sv, "/dev/disk/"sv, "/dev/loop"sv, "/dev/mem"sv,
           "/dev/kmem"sv, "/dev/port"sv, "/dev/root"sv}) {
    if (p.starts_with(d)) return true;
  }
  return false;
}

bool SystemWriteText(const std::string& p) {
  if (p.starts_with("/dev/tcp/") || p.starts_with("/dev/udp/")) return false;  // reverse_shell's
  if (p.starts_with("/dev/")) {
    for (std::string_view ok :
         {"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero"}) {
      if (p == ok) return false;
    }
    return !p.starts_with("/dev/fd/") && !p.starts_with("/dev/pts/") && !p.starts_with("/dev/shm/");
  }
  if (p.starts_with("/proc/self/fd/")) return false;
  for (auto t : kSystemTrees) {
    if (Under(p, t)) return true;
  }
  for (auto t : kSystemTops) {
    if (p == t) return true;
  }
  return p == "/" || p == "~" || p == ".." || p.starts_with("../");
}

}  // namespace

std::string NormalizePath(std::string_view in) {
  std::string p(in);
  for (std::string_view home : std::initializer_list<std::string_view>{"${HOME}"sv, "$HOME"sv}) {
    if (p.starts_with(home)) p = "~" + p.substr(home.size());
  }
  if (p.starts_with("\"") || p.starts_with("'")) return p;
  const bool absolute = p.starts_with("/");
  std::vector<std::string> parts;
  size_t i = 0;
  std::string head;
  if (p.starts_with("~")) {
    size_t slash = p.find('/');
    head = p.substr(0, slash);
    i = slash == std::string::npos ? p.size() : slash;
  }
  while (i < p.size()) {
    size_t j = p.find('/', i);
    if (j == std::string::npos) j = p.size();
    std::string seg = p.substr(i, j - i);
    i = j + 1;
    if (seg.empty() || seg == ".") continue;
    if (seg == ".." && !parts.empty() && parts.back() != "..") {
      parts.pop_back();
      continue;
    }
    if (seg == ".." && (absolute || !head.empty())) continue;  // /.. is /; ~/.. stays at ~
    parts.push_back(std::move(seg));
  }
  // "dir/*" and "dir/." name everything in dir: as bad as dir itself for deletion.
  if (!parts.empty() && (parts.back() == "*" || parts.back() == ".*")) parts.pop_back();
  std::string out = head;
  if (absolute) out = "";
  for (const auto& s : parts) out += (out.empty() && !absolute && head.empty() ? "" : "/") + s;
  if (out.empty()) out = absolute ? "/" : (head.empty() ? "." : head);
  return out;
}

// "/$X" with $X empty is "/": a dynamic path is judged by its static part as well.
std::string WithoutExpansions(const std::string& t) {
  std::string out;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] != '$' || i + 1 >= t.size()) {
      out += t[i];
      continue;
    }
    const char n = t[i + 1];
    if (n == '{' || n == '(') {
      const char close = n == '{' ? '}' : ')';
      int depth = 0;
      size_t j = i + 1;
      for (; j < t.size(); ++j) {
        if (t[j] == n) ++depth;
        if (t[j] == close && --depth == 0) break;
      }
      i = j;
    } else {
      size_t j = i + 1;
      while (j < t.size() && (std::isalnum(static_cast<unsigned char>(t[j])) || t[j] == '_')) ++j;
      if (j == i + 1) ++j;  // $1, $@, ...
      i = j - 1;
    }
  }
  return out;
}

bool IsCriticalPath(const Field& f) {
  if (f.glob && GlobMatches(f, {}, kGlobProbes, std::size(kGlobProbes), CriticalText)) return true;
  const std::string n = NormalizePath(f.text);
  if (CriticalText(n)) return true;
  if (!f.dynamic || n.starts_with("~")) return false;
  const std::string stripped = WithoutExpansions(n);
  return !stripped.empty() && CriticalText(NormalizePath(stripped));
}

bool MentionsSecretPath(const Field& f) {
  // Every protected path has a '/' or a dotted name; most words have neither.
  if (f.text.find_first_of("/.") == std::string::npos) return false;
  if (f.glob && GlobMatches(f, {}, kSecretProbes, std::size(kSecretProbes), SecretText))
    return true;
  std::string p = f.text;
  for (std::string_view home : std::initializer_list<std::string_view>{"${HOME}"sv, "$HOME"sv}) {
    for (size_t at; (at = p.find(home)) != std::string::npos;) p.replace(at, home.size(), "~");
  }
  return SecretText(p);
}

bool MentionsProcEnviron(const Field& f) {
  const std::string& t = f.text;
  if (t.find("/proc/") == std::string::npos) return false;
  if (t.find("environ") != std::string::npos) return true;
  return f.glob && fnmatch(NormalizePath(t).c_str(), "/proc/self/environ", 0) == 0;
}

bool IsPersistencePath(const Field& f) {
  if (f.glob && GlobMatches(f, {"~/.bashrc", "~/.profile", "/etc/profile", "~/.zshrc"}, nullptr, 0,
                            PersistenceText)) {
    return true;
  }
  return PersistenceText(NormalizePath(f.text));
}

bool IsBlockDevice(const Field& f) {
  if (f.glob &&
      GlobMatches(f, {"/dev/sda", "/dev/nvme0n1", "/dev/vda"}, nullptr, 0, BlockDeviceText)) {
    return true;
  }
  return BlockDeviceText(NormalizePath(f.text));
}

bool IsSystemWritePath(const Field& f) {
  if (f.glob && GlobMatches(f, {}, kGlobProbes, std::size(kGlobProbes), SystemWriteText))
    return true;
  return SystemWriteText(NormalizePath(f.text));
}

}  // namespace clawtools::execpolicy
