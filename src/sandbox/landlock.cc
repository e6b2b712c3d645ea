#include "sandbox/landlock.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

#include "core/unique_fd.h"

namespace clawtools::sandbox {
namespace {

// Missing from the 6.1 headers.
constexpr uint64_t kFsTruncate = 1ULL << 14;        // ABI 3
constexpr uint64_t kScopeAbstractUnix = 1ULL << 0;  // ABI 6
constexpr uint64_t kScopeSignal = 1ULL << 1;        // ABI 6

// The ABI 6 layout of struct landlock_ruleset_attr.
struct RulesetAttr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;  // unused (0), present for the layout
  uint64_t scoped;
};

constexpr uint64_t kWriteRights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                                  LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
                                  LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                                  LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                                  LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;

}  // namespace

int LandlockAbi() {
  long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

int ApplyLandlock(const LandlockRules& rules, int abi) {
  if (abi < 1) return ENOSYS;
  uint64_t fs = kWriteRights;
  if (abi >= 2) fs |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) fs |= kFsTruncate;
  RulesetAttr attr{fs, 0, 0};
  size_t size = sizeof(uint64_t);
  if (abi >= 6 && rules.scope_signals) {
    attr.scoped = kScopeAbstractUnix | kScopeSignal;
    size = sizeof(RulesetAttr);
  }
  UniqueFd ruleset(static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, size, 0)));
  if (!ruleset.valid()) return errno;
  for (const auto& path : rules.writable) {
    UniqueFd dir(::open(path.c_str(), O_PATH | O_CLOEXEC));
    if (!dir.valid()) continue;  // an absent path grants nothing
    landlock_path_beneath_attr pb{fs, dir.get()};
    if (::syscall(SYS_landlock_add_rule, ruleset.get(), LANDLOCK_RULE_PATH_BENEATH, &pb, 0) != 0) {
      // A file (such as /dev/null) accepts only file rights.
      pb.allowed_access = LANDLOCK_ACCESS_FS_WRITE_FILE | (abi >= 3 ? kFsTruncate : 0);
      if (::syscall(SYS_landlock_add_rule, ruleset.get(), LANDLOCK_RULE_PATH_BENEATH, &pb, 0) != 0)
        return errno;
    }
  }
  if (::syscall(SYS_landlock_restrict_self, ruleset.get(), 0) != 0) return errno;
  return 0;
}

}  // namespace clawtools::sandbox
