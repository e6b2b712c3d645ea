// Classification of path operands. Paths are compared after lexical normalisation
// ("//etc/./" is "/etc", "/usr/../" is "/", "$HOME" and "${HOME}" are "~", "/*" is "/"),
// and glob operands are matched against the protected paths they could name ("/e*" can
// be "/etc").
#pragma once

#include <string>
#include <string_view>

#include "execpolicy/expander.h"

namespace clawtools::execpolicy {

// Lexical normalisation: no file system access. "~user" stays as written.
std::string NormalizePath(std::string_view path);

// Deleting it recursively, or writing over it, wrecks the system or the user's home:
// "/", "~", system directories and anything below /etc, /usr, /boot, ..., home dotfiles,
// and paths that climb out of the workspace ("..", "../x").
bool IsCriticalPath(const Field& path);

// A file with credentials: ~/.ssh private keys, /etc/shadow, cloud and registry credentials,
// our own data directory. Matched anywhere in the word, so "--data=@~/.aws/credentials" counts.
bool MentionsSecretPath(const Field& word);

// /proc/<pid>/environ: another process's environment.
bool MentionsProcEnviron(const Field& word);

// Shell start-up files, cron and systemd directories, authorized_keys: writing there runs
// code later.
bool IsPersistencePath(const Field& path);

// A whole block device (/dev/sda, /dev/nvme0n1, /dev/mapper/x, ...).
bool IsBlockDevice(const Field& path);

// System locations a workspace command has no business writing: /etc, /usr, /bin, /boot, /sys,
// /proc, /dev (except /dev/null, /dev/std*, /dev/tty, /dev/fd/*), /lib*.
bool IsSystemWritePath(const Field& path);

}  // namespace clawtools::execpolicy
