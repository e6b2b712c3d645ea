// The seccomp filter every sandboxed process runs under: a compiled BPF program that bubblewrap
// loads (--seccomp FD) right before it execs the command.
//
// Denied with EPERM: ptrace, process_vm_*, mount and friends, pivot_root, chroot, unshare,
// setns, clone/clone3 with namespace flags, module loading, kexec, bpf, perf_event_open,
// userfaultfd, keyctl/add_key/request_key, reboot, swapon, acct, quotactl, open_by_handle_at,
// iopl/ioperm, syslog; socket(AF_PACKET) always, socket(AF_NETLINK) except NETLINK_ROUTE.
// Other architectures' syscall tables are killed (libseccomp's bad-arch default).
#pragma once

#include <string>

#include "core/error.h"

namespace clawtools::sandbox {

// The BPF bytes (struct sock_filter[]), compiled once by the caller and written to a fresh
// memfd for every launch (bubblewrap consumes the fd's offset).
Expected<std::string> SeccompProgram();

}  // namespace clawtools::sandbox
