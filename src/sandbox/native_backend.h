// The native Linux sandbox: bubblewrap (no daemon) plus seccomp, Landlock and rlimits.
//
// Inside: a fresh user, pid, mount, ipc, uts and cgroup namespace and, unless the policy
// enables the network, a network namespace with only loopback. The root is an empty tmpfs with
// /usr (and the /bin, /lib* links) and /etc read-only, /etc's secrets hidden, a private /proc,
// a minimal /dev, a size-capped tmpfs at /tmp and the workspace at /workspace (rw, ro, or an
// empty directory for access "none"). Host homes, /root, /var (databases), /run and the gateway's
// own files are simply absent. The command runs as uid/gid 65534 with no capabilities, under the
// seccomp filter (seccomp_filter.h), Landlock (writes beneath /workspace and /tmp only, no
// signals out) and rlimits (memory, processes, file size, CPU time, open files), applied by
// clawtools-sandbox-init. bwrap's --die-with-parent and the pid namespace kill every process of
// the sandbox when the command ends or is killed.
//
// Privilege: when the gateway runs as root, "uid 65534 inside a user namespace" alone would
// still be kuid 0 outside — the owner of every root file and exempt from RLIMIT_NPROC. So the
// spawned child first stages the mounts bwrap needs in a private mount namespace (the workspace
// may sit under /root, which uid 65534 cannot traverse), then drops to the real uid/gid 65534
// and execs bwrap unprivileged. The workspace is staged as an idmapped mount (root-owned files
// appear owned by 65534, files the sandbox creates are stored as root), so `rw` works on a
// root-owned workspace; where the filesystem refuses idmapping, a plain bind is used and the
// description says "workspace not idmapped". A non-root gateway runs bwrap as itself.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "sandbox/backend.h"
#include "core/unique_fd.h"

namespace clawtools::sandbox {

struct NativeOptions {
  std::string bwrap = "/usr/bin/bwrap";
  std::string init_helper;  // absolute path of clawtools-sandbox-init (required)
  std::string shell = "/bin/sh";
  uid_t uid = 65534;  // the unprivileged identity a root gateway drops to
  gid_t gid = 65534;
  int tmp_size_mb = 256;    // tmpfs at /tmp
  int file_size_mb = 1024;  // RLIMIT_FSIZE
  int nofile = 1024;        // RLIMIT_NOFILE
  // Host paths to hide when they are visible inside (under /etc, /usr or the workspace): the
  // store file, the gateway's config directory.
  std::vector<std::string> hide_paths;
};

class NativeBackend : public Backend {
 public:
  // Checks bwrap and the helper, compiles the seccomp filter, reads the Landlock ABI, and (as
  // root) prepares the idmapping user namespace. Does not run anything: ProbeSandbox does.
  static Expected<std::unique_ptr<NativeBackend>> Create(NativeOptions opts);

  Expected<Launched> Start(const LaunchRequest& req) const override;

  int landlock_abi() const { return landlock_abi_; }
  bool drops_root() const { return as_root_; }
  bool idmap_available() const { return idmap_userns_.valid(); }
  const NativeOptions& options() const { return opts_; }
  // "native (bwrap, uid 65534, landlock v7, seccomp, no network)"
  std::string Describe(const Policy& policy, bool idmapped) const;

 private:
  explicit NativeBackend(NativeOptions opts) : opts_(std::move(opts)) {}

  NativeOptions opts_;
  std::string seccomp_bpf_;
  int landlock_abi_ = 0;
  bool as_root_ = false;
  UniqueFd idmap_userns_;  // maps the gateway's uid/gid to 65534; valid only as root
};

}  // namespace clawtools::sandbox
