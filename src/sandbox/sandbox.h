// The sandbox service: both backends, built once at gateway start and shared by every tool.
//
// Create() runs a self-test: a tiny command in the native sandbox that reports its uid, its pid
// (1 or 2 in a private pid namespace), its network interfaces (only "lo" when isolated), its
// seccomp mode, a write to the workspace and a write Landlock must refuse (/proc/self/comm); and
// `docker info` for Docker. A backend is used only when its self-test passed, and capabilities()
// reports exactly what was measured, so the gateway never claims a sandbox it does not have.
// Thread-safe: const after Create.
#pragma once

#include <memory>
#include <string>

#include "core/json.h"
#include "sandbox/docker_backend.h"
#include "sandbox/native_backend.h"

namespace clawtools::sandbox {

struct SandboxOptions {
  NativeOptions native;
  DockerOptions docker;
  bool probe_docker = true;  // false skips `docker info` (no engine configured anywhere)
};

struct Capabilities {
  struct Native {
    bool available = false;
    std::string error;
    std::string bwrap;
    int landlock_abi = 0;
    bool landlock_enforced = false;
    bool seccomp = false;
    bool pid_namespace = false;
    bool network_isolated = false;
    bool drops_root = false;  // a root gateway runs the sandbox as the real uid 65534
    bool workspace_idmap = false;
    int uid_inside = -1;
  } native;
  struct Docker {
    bool available = false;
    std::string version;
    std::string error;
  } docker;
  std::string cgroups;  // detected layout; informational, limits use rlimits
  Json ToJson() const;
};

// clawtools-sandbox-init next to the running executable when present, else the build tree's.
std::string DefaultInitHelperPath();

class Sandbox {
 public:
  static std::shared_ptr<const Sandbox> Create(SandboxOptions opts);

  const Capabilities& capabilities() const { return caps_; }
  bool available(BackendKind kind) const;
  // Starts the request in the backend its policy names; kUnavailable when that backend did not
  // pass the self-test (with the reason).
  Expected<Launched> Start(const LaunchRequest& req) const;

 private:
  Sandbox() = default;

  std::unique_ptr<NativeBackend> native_;
  std::unique_ptr<DockerBackend> docker_;
  Capabilities caps_;
};

}  // namespace clawtools::sandbox
