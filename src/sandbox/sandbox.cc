#include "sandbox/sandbox.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "sandbox/run.h"

namespace clawtools::sandbox {
namespace {

std::string CgroupLayout() {
  struct stat st;
  if (::stat("/sys/fs/cgroup/cgroup.controllers", &st) == 0) return "v2";
  if (::stat("/sys/fs/cgroup/memory", &st) == 0)
    return ::stat("/sys/fs/cgroup/unified", &st) == 0 ? "v1 (hybrid)" : "v1";
  return "none";
}

// Runs the self-test command in the native sandbox with a throwaway rw workspace.
void ProbeNative(const NativeBackend& b, Capabilities::Native& c) {
  char dir[] = "/tmp/clawtools-probe-XXXXXX";
  if (!::mkdtemp(dir)) {
    c.error = "cannot create a probe workspace";
    return;
  }
  ::chmod(dir, 0755);
  // Without an idmapped workspace a root-owned directory is read-only for uid 65534; the probe
  // then tests isolation on a directory it owns, and workspace_idmap reports the difference.
  if (b.drops_root() && !b.idmap_available()) (void)!::chown(dir, b.options().uid, b.options().gid);
  LaunchRequest req{.command =
                        "id -u; echo $$; grep -c : /proc/net/dev; grep Seccomp: /proc/self/status; "
                        "touch /workspace/probe && echo wrote; (echo probe > /proc/self/comm) "
                        "2>/dev/null || echo landlocked",
                    .workspace = dir,
                    .session_key = "probe"};
  req.policy.timeout_sec = 10;
  auto launched = b.Start(req);
  if (!launched) {
    c.error = launched.error().log_message();
  } else {
    RunOutcome out =
        RunToCompletion(launched->process,
                        {.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10)});
    std::istringstream lines(out.head);
    std::string uid, pid, ifaces, seccomp, wrote, landlocked;
    std::getline(lines, uid);
    std::getline(lines, pid);
    std::getline(lines, ifaces);
    std::getline(lines, seccomp);
    std::getline(lines, wrote);
    std::getline(lines, landlocked);
    if (out.status.ShellCode() != 0 || wrote != "wrote") {
      c.error = "self-test failed (exit " + std::to_string(out.status.ShellCode()) +
                "): " + out.head.substr(0, 300);
    } else {
      c.uid_inside = std::atoi(uid.c_str());
      c.pid_namespace = std::atoi(pid.c_str()) <= 3;
      c.network_isolated = ifaces == "1";
      c.seccomp = seccomp.find('2') != std::string::npos;
      // A write outside the Landlock rules (procfs) must fail when the kernel has Landlock.
      c.landlock_enforced = landlocked == "landlocked";
      c.available = c.uid_inside == 65534 && c.pid_namespace && c.network_isolated && c.seccomp &&
                    (c.landlock_enforced || c.landlock_abi == 0);
      if (!c.available) c.error = "self-test output not isolated: " + out.head.substr(0, 300);
      c.workspace_idmap = launched->where.find("not idmapped") == std::string::npos;
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace

std::string DefaultInitHelperPath() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto beside = exe.parent_path() / "clawtools-sandbox-init";
    if (::access(beside.c_str(), X_OK) == 0) return beside.string();
  }
  return CLAWTOOLS_SANDBOX_INIT_BUILD_PATH;
}

Json Capabilities::ToJson() const {
  return {{"native",
           {{"available", native.available},
            {"error", native.error},
            {"bwrap", native.bwrap},
            {"landlock_abi", native.landlock_abi},
            {"landlock_enforced", native.landlock_enforced},
            {"seccomp", native.seccomp},
            {"pid_namespace", native.pid_namespace},
            {"network_isolated", native.network_isolated},
            {"drops_root", native.drops_root},
            {"workspace_idmap", native.workspace_idmap},
            {"uid_inside", native.uid_inside}}},
          {"docker",
           {{"available", docker.available}, {"version", docker.version}, {"error", docker.error}}},
          {"cgroups", cgroups},
          {"limits",
           "rlimits (RLIMIT_AS, RLIMIT_NPROC per sandbox user namespace, RLIMIT_FSIZE, RLIMIT_CPU, "
           "RLIMIT_NOFILE)"}};
}

std::shared_ptr<const Sandbox> Sandbox::Create(SandboxOptions opts) {
  std::shared_ptr<Sandbox> s(new Sandbox());
  s->caps_.cgroups = CgroupLayout();
  s->caps_.native.bwrap = opts.native.bwrap;
  if (auto native = NativeBackend::Create(std::move(opts.native))) {
    s->caps_.native.landlock_abi = (*native)->landlock_abi();
    s->caps_.native.drops_root = (*native)->drops_root();
    ProbeNative(**native, s->caps_.native);
    if (s->caps_.native.available) s->native_ = std::move(*native);
  } else {
    s->caps_.native.error = native.error().log_message();
  }
  if (opts.probe_docker) {
    if (auto docker = DockerBackend::Create(std::move(opts.docker))) {
      s->caps_.docker.available = true;
      s->caps_.docker.version = (*docker)->server_version();
      s->docker_ = std::move(*docker);
    } else {
      s->caps_.docker.error = docker.error().log_message();
    }
  } else {
    s->caps_.docker.error = "not probed";
  }
  return s;
}

bool Sandbox::available(BackendKind kind) const {
  return kind == BackendKind::kNative ? native_ != nullptr : docker_ != nullptr;
}

Expected<Launched> Sandbox::Start(const LaunchRequest& req) const {
  if (req.policy.backend == BackendKind::kDocker) {
    if (!docker_)
      return Fail(ErrorCode::kUnavailable, "docker sandbox unavailable: " + caps_.docker.error);
    return docker_->Start(req);
  }
  if (!native_)
    return Fail(ErrorCode::kUnavailable, "native sandbox unavailable: " + caps_.native.error);
  return native_->Start(req);
}

}  // namespace clawtools::sandbox
