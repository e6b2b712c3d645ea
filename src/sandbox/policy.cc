#include "sandbox/policy.h"

namespace clawtools::sandbox {
namespace {

void Apply(const Json& s, Policy& p) {
  if (!s.is_object()) return;
  if (auto it = s.find("mode"); it != s.end()) {
    const auto& m = it->get_ref<const std::string&>();
    p.mode = m == "non-main"   ? Mode::kNonMain
             : m == "all"      ? Mode::kAll
             : m == "required" ? Mode::kRequired
                               : Mode::kOff;
  }
  if (auto it = s.find("backend"); it != s.end())
    p.backend = it->get<std::string>() == "docker" ? BackendKind::kDocker : BackendKind::kNative;
  if (auto it = s.find("workspace_access"); it != s.end()) {
    const auto& a = it->get_ref<const std::string&>();
    p.workspace_access = a == "none" ? WorkspaceAccess::kNone
                         : a == "ro" ? WorkspaceAccess::kReadOnly
                                     : WorkspaceAccess::kReadWrite;
  }
  p.network_enabled = s.value("network_enabled", p.network_enabled);
  p.memory_mb = s.value("memory_mb", p.memory_mb);
  p.cpus = s.value("cpus", p.cpus);
  p.pids_limit = s.value("pids_limit", p.pids_limit);
  p.timeout_sec = s.value("timeout_sec", p.timeout_sec);
  p.image = s.value("image", p.image);
  p.scope = s.value("scope", p.scope);
  if (auto it = s.find("env"); it != s.end() && it->is_object())
    for (const auto& [k, v] : it->items()) p.env[k] = v.get<std::string>();
}

}  // namespace

Policy PolicyFor(const Json& root, std::string_view agent_id) {
  Policy p;
  const Json* agents = root.contains("agents") ? &root["agents"] : nullptr;
  if (!agents) return p;
  if (agents->contains("defaults") && (*agents)["defaults"].contains("sandbox"))
    Apply((*agents)["defaults"]["sandbox"], p);
  if (agents->contains("list") && (*agents)["list"].is_array() && !agent_id.empty())
    for (const auto& a : (*agents)["list"])
      if (a.value("id", "") == agent_id && a.contains("sandbox")) Apply(a["sandbox"], p);
  return p;
}

bool IsMainSession(std::string_view key) {
  return key.empty() || key == "main" || key.ends_with(":main");
}

Placement Route(Mode mode, std::string_view session_key) {
  switch (mode) {
    case Mode::kOff:
      return Placement::kHost;
    case Mode::kNonMain:
      return IsMainSession(session_key) ? Placement::kHost : Placement::kSandbox;
    case Mode::kAll:
    case Mode::kRequired:
      return Placement::kSandbox;
  }
  return Placement::kSandbox;
}

const char* ModeName(Mode m) {
  switch (m) {
    case Mode::kOff:
      return "off";
    case Mode::kNonMain:
      return "non-main";
    case Mode::kAll:
      return "all";
    case Mode::kRequired:
      return "required";
  }
  return "?";
}

const char* AccessName(WorkspaceAccess a) {
  switch (a) {
    case WorkspaceAccess::kNone:
      return "none";
    case WorkspaceAccess::kReadOnly:
      return "ro";
    case WorkspaceAccess::kReadWrite:
      return "rw";
  }
  return "?";
}

}  // namespace clawtools::sandbox
