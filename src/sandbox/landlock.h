// Landlock, applied by the sandbox's init helper after bubblewrap has built the mount tree
// (a landlocked process may not mount, so it cannot be applied before bwrap).
//
// Network isolation is the network namespace's job, not Landlock's: sandbox-local loopback
// servers (tests in the workspace) keep working.
//
// Debian 12's linux-libc-dev (6.1) lacks the constants of ABI 3+ (truncate, scoping);
// they are defined here and used only when the running kernel reports that ABI.
#pragma once

#include <string>
#include <vector>

namespace clawtools::sandbox {

// The kernel's Landlock ABI version; 0 when Landlock is unavailable or disabled.
int LandlockAbi();

struct LandlockRules {
  std::vector<std::string> writable;  // every write-type right is granted beneath these only
  bool scope_signals = true;          // ABI >= 6: no signals or abstract sockets outside
};

// Restricts the calling thread (and its future children). Requires no_new_privs (bwrap sets
// it). Returns 0 or an errno; ENOSYS/EOPNOTSUPP when the kernel has no Landlock.
int ApplyLandlock(const LandlockRules& rules, int abi);

}  // namespace clawtools::sandbox
