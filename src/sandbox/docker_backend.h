// The Docker sandbox: one `docker run --rm` container per command with GoClaw's hardened flags
// (read-only root, no capabilities, no-new-privileges, no network unless enabled, memory, cpu and
// pids limits, uid 65534) and the workspace at /workspace. Container names carry the sanitized
// sandbox key plus a random suffix, so two keys can never collide (GoClaw truncated keys to 50
// characters and could). A container outlives a killed client, so after_kill removes it.
#pragma once

#include <memory>
#include <string>

#include "sandbox/backend.h"

namespace clawtools::sandbox {

struct DockerOptions {
  std::string docker = "docker";  // resolved on PATH
  int tmp_size_mb = 256;
};

class DockerBackend : public Backend {
 public:
  // Available only when the engine answers `docker info` within `timeout`.
  static Expected<std::unique_ptr<DockerBackend>> Create(
      DockerOptions opts, std::chrono::milliseconds timeout = std::chrono::seconds(5));

  Expected<Launched> Start(const LaunchRequest& req) const override;
  const std::string& server_version() const { return version_; }

  // The arguments after `docker` that Start runs, with the given container name. The
  // container's variables are named (`-e NAME`), their values travel in ClientEnvironment: argv
  // is world-readable (ps, /proc/<pid>/cmdline), a process's environment is not.
  static std::vector<std::string> RunArgs(const DockerOptions& opts, const LaunchRequest& req,
                                          const std::string& name);
  // The docker client's environment for `req`: where the engine is (DOCKER_HOST, DOCKER_CONTEXT,
  // DOCKER_CONFIG, HOME, a fixed PATH), nothing else of the gateway's, plus the values RunArgs
  // names.
  static std::vector<std::string> ClientEnvironment(const LaunchRequest& req);
  // "clawtools-sbx-<key with [^A-Za-z0-9_.-] replaced, at most 40 chars>-<8 random hex>"
  static std::string ContainerName(std::string_view session_key);

 private:
  DockerBackend(DockerOptions opts, std::string docker_path, std::string version)
      : opts_(std::move(opts)),
        docker_path_(std::move(docker_path)),
        version_(std::move(version)) {}

  DockerOptions opts_;
  std::string docker_path_;
  std::string version_;
};

// Finds `name` on the gateway's PATH; empty when absent.
std::string FindOnPath(const std::string& name);

}  // namespace clawtools::sandbox
