// clawtools-sandbox-init: the first program bubblewrap runs inside a native sandbox.
//
//   clawtools-sandbox-init [--rw PATH]... [--landlock-abi N] [--as BYTES] [--nproc N]
//                          [--fsize BYTES] [--cpu SECONDS] [--nofile N] -- COMMAND...
//
// It applies what bubblewrap cannot: Landlock (writes only beneath the --rw paths, no signals
// to processes outside the sandbox) and rlimits (RLIMIT_NPROC is counted per uid within the
// sandbox's user namespace, so it bounds a fork bomb of this sandbox only), then execs COMMAND.
// With --landlock-abi N > 0 a Landlock failure is fatal: the gateway's self-test promised it.
// Exit 126 on any setup failure, before the command runs.
//
//   clawtools-sandbox-init --reap -- COMMAND...
//
// Runs a host command under a child subreaper instead (sandbox/descendant_reaper.h): when it
// ends, everything it started ends too, also what left its process group.
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "sandbox/descendant_reaper.h"
#include "sandbox/landlock.h"

namespace {

[[noreturn]] void Die(const char* what, int err) {
  std::fprintf(stderr, "sandbox-init: %s: %s\n", what, std::strerror(err));
  std::_Exit(126);
}

void Limit(int resource, const char* value) {
  rlim_t v = std::strtoull(value, nullptr, 10);
  rlimit rl{v, v};
  if (::setrlimit(resource, &rl) != 0) Die("setrlimit", errno);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 3 && std::string(argv[1]) == "--reap" && std::string(argv[2]) == "--")
    clawtools::sandbox::RunReaped(argv + 3);
  clawtools::sandbox::LandlockRules rules;
  int abi = 0;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (i + 1 >= argc) Die(argv[i], EINVAL);
    const char* v = argv[++i];
    if (a == "--rw")
      rules.writable.push_back(v);
    else if (a == "--landlock-abi")
      abi = std::atoi(v);
    else if (a == "--as")
      Limit(RLIMIT_AS, v);
    else if (a == "--nproc")
      Limit(RLIMIT_NPROC, v);
    else if (a == "--fsize")
      Limit(RLIMIT_FSIZE, v);
    else if (a == "--cpu")
      Limit(RLIMIT_CPU, v);
    else if (a == "--nofile")
      Limit(RLIMIT_NOFILE, v);
    else
      Die(argv[i - 1], EINVAL);
  }
  if (i >= argc) Die("no command", EINVAL);
  Limit(RLIMIT_CORE, "0");
  if (abi > 0) {
    if (int e = clawtools::sandbox::ApplyLandlock(rules, abi); e != 0) Die("landlock", e);
  }
  ::execv(argv[i], argv + i);
  Die(argv[i], errno);
}
