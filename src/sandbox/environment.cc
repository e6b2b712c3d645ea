#include "sandbox/environment.h"

#include <string_view>

namespace clawtools::sandbox {
namespace {

bool Allowed(std::string_view key) {
  static constexpr std::string_view kNames[] = {"PATH", "HOME", "LANG", "TERM",
                                                "TZ",   "USER", "SHELL"};
  for (auto n : kNames)
    if (key == n) return true;
  return key.starts_with("LC_");
}

bool Forbidden(std::string_view key) {
  return key.empty() || key.starts_with("LD_") || key.starts_with("BASH_FUNC_") ||
         key.find('=') != std::string_view::npos;
}

std::vector<std::string> Flatten(const std::map<std::string, std::string>& m) {
  std::vector<std::string> out;
  for (const auto& [k, v] : m) out.push_back(k + "=" + v);
  return out;
}

void Overlay(std::map<std::string, std::string>& env,
             const std::map<std::string, std::string>& extra) {
  for (const auto& [k, v] : extra)
    if (!Forbidden(k)) env[k] = v;
}

}  // namespace

std::vector<std::string> HostEnvironment(char** parent,
                                         const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> env;
  for (char** e = parent; e && *e; ++e) {
    std::string_view kv(*e);
    size_t eq = kv.find('=');
    if (eq == std::string_view::npos) continue;
    if (Allowed(kv.substr(0, eq)))
      env[std::string(kv.substr(0, eq))] = std::string(kv.substr(eq + 1));
  }
  if (!env.contains("PATH")) env["PATH"] = "/usr/local/bin:/usr/bin:/bin";
  Overlay(env, extra);
  return Flatten(env);
}

std::vector<std::string> SandboxEnvironment(const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> env = {
      {"PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
      {"HOME", "/workspace"},
      {"LANG", "C.UTF-8"},
      {"TERM", "dumb"},
      {"TMPDIR", "/tmp"},
  };
  Overlay(env, extra);
  return Flatten(env);
}

}  // namespace clawtools::sandbox
