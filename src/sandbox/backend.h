// A place to run a shell command other than the host: the native (bubblewrap) sandbox or Docker.
#pragma once

#include <functional>
#include <string>

#include "core/error.h"
#include "sandbox/policy.h"
#include "sandbox/process.h"

namespace clawtools::sandbox {

struct LaunchRequest {
  std::string command;      // run as `sh -c command`
  std::string workspace;    // host path of the workspace, mounted at /workspace
  std::string cwd_rel;      // working directory relative to the workspace ("" = its root)
  std::string session_key;  // the sandbox key
  Policy policy;
};

struct Launched {
  Process process;
  std::string where;  // "sandbox: native (bwrap, uid 65534, landlock v7, seccomp, no network)"
  // Extra cleanup after the process was killed early (a Docker container outlives its client).
  std::function<void()> after_kill;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual Expected<Launched> Start(const LaunchRequest& req) const = 0;
};

}  // namespace clawtools::sandbox
