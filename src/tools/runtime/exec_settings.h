// Settings of the exec and process tools, from `tools.exec` in the config:
//
//   "exec": { "timeout_sec": 60,            // host commands (the seed's 60 s)
//             "max_output_chars": 16000,     // what the model sees: head + tail
//             "shell": "/bin/sh",
//             "env": { "K": "V" },           // added to host commands' scrubbed environment
//             "sandbox_tmp_mb": 256, "sandbox_file_mb": 1024,
//             "process": { "max_per_session": 16, "max_total": 64, "buffer_bytes": 1048576,
//                          "max_runtime_sec": 3600, "retain_exited_sec": 1800 } }
//
// Sandboxed commands use the agent's sandbox timeout_sec (the seed's 300 s).
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "core/json.h"
#include "sandbox/sandbox.h"

namespace clawtools {

struct ProcessLimits {
  size_t max_per_session = 16;
  size_t max_total = 64;
  size_t buffer_bytes = 1 << 20;
  std::chrono::seconds max_runtime{3600};
  std::chrono::seconds retain_exited{1800};
};

struct ExecSettings {
  std::chrono::seconds host_timeout{60};
  size_t max_output_chars = 16000;
  std::string shell = "/bin/sh";
  std::map<std::string, std::string> host_env;
  // clawtools-sandbox-init, which host commands run under (`--reap`) so that everything they
  // start ends with them; empty: only their process group is killed.
  std::string host_reaper;
  int sandbox_tmp_mb = 256;
  int sandbox_file_mb = 1024;
  ProcessLimits process;
};

ExecSettings ExecSettingsFrom(const Json& config_root);

// Options for sandbox::Sandbox::Create from the config: the helper's path (installed next to
// the clawtools binary), limits from tools.exec, and `hide_paths` (the store file, the config
// directory) that must not be visible inside.
sandbox::SandboxOptions SandboxOptionsFrom(const Json& config_root, std::string init_helper,
                                           std::vector<std::string> hide_paths);

}  // namespace clawtools
