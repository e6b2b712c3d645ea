// Environments for commands. A command never inherits the gateway's environment: the gateway
// holds provider API keys, the gateway token, the encryption key and the database URL, and a
// model can print any variable it can see (`env`, `python -c 'import os; ...'`), so an env-dump
// deny rule is no barrier. Only an explicit allowlist is copied.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace clawtools::sandbox {

// Host commands: PATH, HOME, LANG, LC_*, TERM, TZ, USER, SHELL from `parent` (usually environ),
// then `extra` (configuration) on top. Extra keys that the loader would refuse for any command
// (LD_*, BASH_FUNC_*) are dropped. "K=V" strings, sorted by key.
std::vector<std::string> HostEnvironment(char** parent,
                                         const std::map<std::string, std::string>& extra);

// Sandboxed commands: fixed PATH, HOME=/workspace, LANG=C.UTF-8, TERM=dumb, then `extra`.
std::vector<std::string> SandboxEnvironment(const std::map<std::string, std::string>& extra);

}  // namespace clawtools::sandbox
