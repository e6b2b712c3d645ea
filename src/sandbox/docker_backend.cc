#include "sandbox/docker_backend.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "sandbox/environment.h"
#include "sandbox/run.h"

namespace clawtools::sandbox {
namespace {

// What the docker client itself reads: the container's values for these names cannot travel in
// the client's environment (they would redirect the client), so they go on the command line.
bool ClientReads(std::string_view name) {
  return name == "PATH" || name == "HOME" || name.starts_with("DOCKER_");
}

std::vector<std::string> EngineEnvironment() {
  std::vector<std::string> env = {"PATH=/usr/local/bin:/usr/bin:/bin"};
  for (const char* k : {"DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG", "HOME"})
    if (const char* v = std::getenv(k)) env.push_back(std::string(k) + "=" + v);
  return env;
}

std::string_view NameOf(std::string_view kv) {
  return kv.substr(0, kv.find('='));
}

}  // namespace

std::string FindOnPath(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!rest.empty()) {
    size_t c = rest.find(':');
    std::string dir(rest.substr(0, c));
    rest = c == std::string_view::npos ? "" : rest.substr(c + 1);
    std::string full = dir + "/" + name;
    if (!dir.empty() && ::access(full.c_str(), X_OK) == 0) return full;
  }
  return "";
}

Expected<std::unique_ptr<DockerBackend>> DockerBackend::Create(DockerOptions opts,
                                                               std::chrono::milliseconds timeout) {
  std::string path = FindOnPath(opts.docker);
  if (path.empty()) return Fail(ErrorCode::kUnavailable, "docker client not found");
  auto proc = Process::Spawn(
      {.argv = {path, "info", "--format", "{{.ServerVersion}}"}, .env = EngineEnvironment()});
  if (!proc) return std::unexpected(proc.error());
  RunOutcome out = RunToCompletion(*proc, {.deadline = std::chrono::steady_clock::now() + timeout});
  std::string version = out.head;
  while (!version.empty() && (version.back() == '\n' || version.back() == ' ')) version.pop_back();
  if (out.timed_out || out.status.ShellCode() != 0 || version.empty()) {
    std::string why = out.timed_out ? "timed out" : out.head;
    while (!why.empty() && (why.back() == '\n' || why.front() == '\n'))
      why = why.back() == '\n' ? why.substr(0, why.size() - 1) : why.substr(1);
    return Fail(ErrorCode::kUnavailable, "docker engine not answering: " + why.substr(0, 200));
  }
  return std::unique_ptr<DockerBackend>(
      new DockerBackend(std::move(opts), std::move(path), std::move(version)));
}

std::string DockerBackend::ContainerName(std::string_view key) {
  std::string name = "clawtools-sbx-";
  for (char c : key.substr(0, 40))
    name +=
        (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-') ? c : '-';
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  char suffix[10];
  std::snprintf(suffix, sizeof(suffix), "-%08x", static_cast<unsigned>(rng()));
  return name + suffix;
}

std::vector<std::string> DockerBackend::RunArgs(const DockerOptions& opts, const LaunchRequest& req,
                                                const std::string& name) {
  const Policy& p = req.policy;
  char cpus[32];
  std::snprintf(cpus, sizeof(cpus), "%.2f", p.cpus);
  std::vector<std::string> a = {
      "run",
      "--rm",
      "-i",
      "--name",
      name,
      "--label",
      "clawtools.sandbox=true",
      "--network",
      p.network_enabled ? "bridge" : "none",
      "--cap-drop",
      "ALL",
      "--security-opt",
      "no-new-privileges",
      "--read-only",
      "--tmpfs",
      "/tmp:rw,nosuid,nodev,size=" + std::to_string(opts.tmp_size_mb) + "m",
      "--pids-limit",
      std::to_string(p.pids_limit),
      "--memory",
      std::to_string(p.memory_mb) + "m",
      "--cpus",
      cpus,
      "--user",
      "65534:65534"};
  if (p.workspace_access != WorkspaceAccess::kNone)
    a.insert(a.end(), {"-v", req.workspace + ":/workspace" +
                                 (p.workspace_access == WorkspaceAccess::kReadOnly ? ":ro" : "")});
  a.insert(a.end(), {"-w", req.cwd_rel.empty() ? "/workspace" : "/workspace/" + req.cwd_rel});
  for (const auto& kv : SandboxEnvironment(p.env)) {
    std::string_view name = NameOf(kv);
    a.insert(a.end(), {"-e", ClientReads(name) ? kv : std::string(name)});
  }
  a.insert(a.end(), {p.image, "sh", "-c", req.command});
  return a;
}

std::vector<std::string> DockerBackend::ClientEnvironment(const LaunchRequest& req) {
  std::vector<std::string> env = EngineEnvironment();
  for (auto& kv : SandboxEnvironment(req.policy.env)) {
    if (!ClientReads(NameOf(kv))) env.push_back(std::move(kv));
  }
  return env;
}

Expected<Launched> DockerBackend::Start(const LaunchRequest& req) const {
  std::string name = ContainerName(req.session_key);
  std::vector<std::string> argv = {docker_path_};
  for (auto& s : RunArgs(opts_, req, name)) argv.push_back(std::move(s));
  auto proc = Process::Spawn({.argv = std::move(argv), .env = ClientEnvironment(req)});
  if (!proc) return std::unexpected(proc.error());
  std::string where = "sandbox: docker (" + req.policy.image + ", uid 65534, " +
                      (req.policy.network_enabled ? "network" : "no network") + ")";
  std::string docker = docker_path_;
  return Launched{
      std::move(*proc), std::move(where), [docker, name] {
        if (auto rm =
                Process::Spawn({.argv = {docker, "rm", "-f", name}, .env = EngineEnvironment()}))
          RunToCompletion(
              *rm, {.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10)});
      }};
}

}  // namespace clawtools::sandbox
