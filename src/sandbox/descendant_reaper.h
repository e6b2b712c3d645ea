// Host commands run under a reaper, so that the end of a command is the end of everything it
// started. A process group does not contain a command: `setsid sleep 1000 &` leaves the group
// and survives the group kill. The reaper is a child subreaper (PR_SET_CHILD_SUBREAPER): every
// descendant orphaned below it is re-parented to it, so it can find and kill all of them.
//
// RunReaped(argv) forks and execs argv (PATH searched) and waits for it. When it exits, the
// reaper SIGKILLs and reaps every remaining descendant, then ends the way the command did (same
// exit code, or the same signal). Signals to the group (a grace SIGTERM, the process tool's HUP
// or USR1) are left to the command: the reaper blocks them all, so it is always there to clean
// up. Only a SIGKILL of the reaper itself (a command that ignores SIGTERM past the gateway's
// grace) or of the gateway can leave an escaped descendant behind; the native sandbox's pid
// namespace covers those.
#pragma once

namespace clawtools::sandbox {

// Does not return. argv is null-terminated and non-empty.
[[noreturn]] void RunReaped(char** argv);

}  // namespace clawtools::sandbox
