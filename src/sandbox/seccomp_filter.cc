#include "sandbox/seccomp_filter.h"

#include <errno.h>
#include <linux/netlink.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "core/unique_fd.h"

namespace clawtools::sandbox {

Expected<std::string> SeccompProgram() {
  std::unique_ptr<void, void (*)(scmp_filter_ctx)> ctx(seccomp_init(SCMP_ACT_ALLOW),
                                                       seccomp_release);
  if (!ctx) return Fail(ErrorCode::kUnavailable, "seccomp_init failed");
  const uint32_t deny = SCMP_ACT_ERRNO(EPERM);
  static constexpr const char* kDenied[] = {"ptrace",
                                            "process_vm_readv",
                                            "process_vm_writev",
                                            "mount",
                                            "umount2",
                                            "pivot_root",
                                            "chroot",
                                            "unshare",
                                            "setns",
                                            "fsopen",
                                            "fsmount",
                                            "fsconfig",
                                            "fspick",
                                            "move_mount",
                                            "open_tree",
                                            "mount_setattr",
                                            "init_module",
                                            "finit_module",
                                            "delete_module",
                                            "kexec_load",
                                            "kexec_file_load",
                                            "bpf",
                                            "perf_event_open",
                                            "userfaultfd",
                                            "keyctl",
                                            "add_key",
                                            "request_key",
                                            "reboot",
                                            "swapon",
                                            "swapoff",
                                            "acct",
                                            "quotactl",
                                            "open_by_handle_at",
                                            "name_to_handle_at",
                                            "iopl",
                                            "ioperm",
                                            "syslog",
                                            "lookup_dcookie",
                                            "settimeofday",
                                            "clock_settime",
                                            "adjtimex",
                                            "clock_adjtime",
                                            "personality"};
  for (const char* name : kDenied) {
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) continue;  // not on this architecture
    if (seccomp_rule_add(ctx.get(), deny, nr, 0) != 0)
      return Fail(ErrorCode::kInternal, std::string("seccomp rule for ") + name);
  }
  int rc = 0;
  // clone3 passes its flags in memory seccomp cannot read: ENOSYS makes libc fall back to clone.
  rc |= seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  for (uint64_t flag : {CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWUTS,
                        CLONE_NEWIPC, CLONE_NEWCGROUP})
    rc |= seccomp_rule_add(ctx.get(), deny, SCMP_SYS(clone), 1,
                           SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
  rc |= seccomp_rule_add(ctx.get(), deny, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, AF_PACKET));
  rc |= seccomp_rule_add(ctx.get(), deny, SCMP_SYS(socket), 2, SCMP_A0(SCMP_CMP_EQ, AF_NETLINK),
                         SCMP_A2(SCMP_CMP_NE, NETLINK_ROUTE));
  if (rc != 0) return Fail(ErrorCode::kInternal, "seccomp argument rules failed");

  UniqueFd fd(::memfd_create("clawtools-seccomp", MFD_CLOEXEC));
  if (!fd.valid()) return Fail(ErrorCode::kUnavailable, "memfd_create failed");
  if (seccomp_export_bpf(ctx.get(), fd.get()) != 0)
    return Fail(ErrorCode::kInternal, "seccomp export failed");
  std::string bpf;
  char buf[4096];
  ssize_t n;
  ::lseek(fd.get(), 0, SEEK_SET);
  while ((n = ::read(fd.get(), buf, sizeof(buf))) > 0) bpf.append(buf, static_cast<size_t>(n));
  return bpf;
}

}  // namespace clawtools::sandbox
