#include "execpolicy/paths.h"

#include <fnmatch.h>

#include <algorithm>
#include <array>
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
                 const std::string_view* probes, size_t n, bool (*pred)(std::string_view)) {
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

// /home/NAME/x and /root/x as ~/x: another user's home is as protected as ours. Returns `p`
// itself unless it is rewritten into `storage`.
std::string_view HomeRelative(std::string_view p, std::string& storage) {
  if (p.starts_with("/root/")) {
    // push_back rather than assign("~/"): g++ 12 reports a false -Wrestrict for the latter.
    storage.clear();
    storage.push_back('~');
    storage.append(p.substr(5));
    return storage;
  }
  for (std::string_view home : std::initializer_list<std::string_view>{"/home/"sv, "/Users/"sv}) {
    if (!p.starts_with(home)) continue;
    size_t slash = p.find('/', home.size());
    if (slash != std::string_view::npos) {
      storage.clear();
      storage.push_back('~');
      storage.append(p.substr(slash));
      return storage;
    }
  }
  return p;
}

bool CriticalText(std::string_view path) {
  std::string storage;
  const std::string_view p = HomeRelative(path, storage);
  if (p == "/" || p == "~" || p.starts_with("~/.") || p == "..") return true;
  if (p.starts_with("../")) return true;
  if (p.starts_with("~") && p.find('/') == std::string_view::npos) return true;  // ~user
  for (auto t : kSystemTops) {
    if (p == t) return true;
  }
  for (auto t : kSystemTrees) {
    if (Under(p, t)) return true;
  }
  for (std::string_view home :
       std::initializer_list<std::string_view>{"/home/"sv, "/Users/"sv}) {  // /home/NAME itself
    if (p.starts_with(home) && p.find('/', home.size()) == std::string_view::npos) return true;
  }
  return false;
}

// Only a '/' or a '.' can start a fragment, and every fragment has a second character (checked
// here): SecretText only looks at such positions, and only where the next character fits.
constexpr bool FragmentsStartWithSeparator() {
  for (std::string_view f : kSecretFragments) {
    if (f.size() < 2 || (f[0] != '/' && f[0] != '.')) return false;
  }
  return true;
}
static_assert(FragmentsStartWithSeparator());

// [0][c]: some fragment starts with "/c"; [1][c]: with ".c".
constexpr auto kFragmentSecond = [] {
  std::array<std::array<bool, 256>, 2> second{};
  for (std::string_view f : kSecretFragments)
    second[f[0] == '.'][static_cast<unsigned char>(f[1])] = true;
  return second;
}();

bool SecretText(std::string_view p) {
  for (size_t at = 0; at + 1 < p.size(); ++at) {
    if ((p[at] != '/' && p[at] != '.') ||
        !kFragmentSecond[p[at] == '.'][static_cast<unsigned char>(p[at + 1])]) {
      continue;
    }
    const std::string_view rest = p.substr(at);
    for (auto frag : kSecretFragments) {
      if (rest.starts_with(frag)) return true;
    }
  }
  // Private keys: anything in .ssh except public keys, known_hosts and config.
  size_t ssh = p.find(".ssh");
  if (ssh != std::string_view::npos) {
    std::string_view rest = p.substr(ssh + 4);
    if (rest.empty() || rest == "/" || rest == "/*") return true;
    if (rest.starts_with("/")) {
      rest.remove_prefix(1);
      if (!rest.ends_with(".pub") && !rest.starts_with("known_hosts") && rest != "config" &&
          rest != "authorized_keys") {
        return true;
      }
    }
  }
  if (p.ends_with(".pub")) return false;
  for (size_t at = p.find("id_"); at != std::string_view::npos; at = p.find("id_", at + 1)) {
    const std::string_view key = p.substr(at + 3);
    if (key.starts_with("rsa") || key.starts_with("ed25519") || key.starts_with("ecdsa") ||
        key.starts_with("dsa")) {
      return true;
    }
  }
  return false;
}

bool PersistenceText(std::string_view path) {
  std::string storage;
  const std::string_view p = HomeRelative(path, storage);
  for (auto frag : kPersistenceFragments) {
    if (p.starts_with(frag)) return true;
  }
  return false;
}

bool BlockDeviceText(std::string_view p) {
  if (!p.starts_with("/dev/")) return false;
  for (std::string_view d : std::initializer_list<std::string_view>{
           "/dev/sd"sv, "/dev/hd"sv, "/dev/vd"sv, "/dev/xvd"sv, "/dev/nvme"sv, "/dev/mmcblk"sv,
           "/dev/mapper/"sv, "/dev/md"sv, "/dev/dm-"sv, "/dev/disk/"sv, "/dev/loop"sv, "/dev/mem"sv,
           "/dev/kmem"sv, "/dev/port"sv, "/dev/root"sv}) {
    if (p.starts_with(d)) return true;
  }
  return false;
}

bool SystemWriteText(std::string_view p) {
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
  std::string_view p = in;
  std::string out;
  // $HOME and ${HOME} are "~"; `out` holds the head ("~", "~user") before the segments.
  for (std::string_view home : std::initializer_list<std::string_view>{"${HOME}"sv, "$HOME"sv}) {
    if (p.starts_with(home)) {
      p.remove_prefix(home.size());
      out.push_back('~');
      break;
    }
  }
  if (out.empty() && (p.starts_with("\"") || p.starts_with("'"))) return std::string(p);
  if (out.empty() && p.starts_with("~")) {
    const size_t slash = std::min(p.find('/'), p.size());
    out = p.substr(0, slash);
    p.remove_prefix(slash);
  } else if (!out.empty()) {
    const size_t slash = std::min(p.find('/'), p.size());
    out.append(p.substr(0, slash));
    p.remove_prefix(slash);
  }
  const bool absolute = out.empty() && p.starts_with("/");
  const size_t base = out.size();
  // The segments are appended to `out` as they come; ".." removes the last one again.
  const bool leading_slash = absolute || base > 0;
  auto last_start = [&]() -> size_t {
    const size_t slash = out.rfind('/');
    return slash == std::string::npos || slash < base ? base : slash;
  };
  auto last = [&]() {
    const size_t at = last_start();
    return std::string_view(out).substr(at + (at < out.size() && out[at] == '/' ? 1 : 0));
  };
  size_t i = 0;
  while (i < p.size()) {
    size_t j = std::min(p.find('/', i), p.size());
    const std::string_view seg = p.substr(i, j - i);
    i = j + 1;
    if (seg.empty() || seg == ".") continue;
    if (seg == ".." && out.size() > base && last() != "..") {
      out.resize(last_start());
      continue;
    }
    if (seg == ".." && leading_slash) continue;  // /.. is /; ~/.. stays at ~
    if (leading_slash || out.size() > base) out += '/';
    out.append(seg);
  }
  // "dir/*" and "dir/." name everything in dir: as bad as dir itself for deletion.
  if (out.size() > base && (last() == "*" || last() == ".*")) out.resize(last_start());
  if (out.empty()) out.push_back(absolute ? '/' : '.');
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
  if (std::none_of(f.text.begin(), f.text.end(), [](char c) { return c == '/' || c == '.'; }))
    return false;
  if (f.glob && GlobMatches(f, {}, kSecretProbes, std::size(kSecretProbes), SecretText))
    return true;
  if (f.text.find('$') == std::string::npos) return SecretText(f.text);
  // ${HOME} and $HOME as "~"; their occurrences cannot overlap, so one pass replaces both.
  std::string p;
  for (std::string_view t = f.text; !t.empty();) {
    if (t.starts_with("${HOME}") || t.starts_with("$HOME")) {
      p.push_back('~');
      t.remove_prefix(t[1] == '{' ? 7 : 5);
    } else {
      p.push_back(t[0]);
      t.remove_prefix(1);
    }
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
