// Inline interpreter code (python -c, perl -e, ruby -e, node -e, php -r, awk programs):
// not parsed as a language, but scanned for the calls that matter to a shell policy.
//
// Shell calls with a literal command (os.system("..."), subprocess.run([...]), `...`,
// execSync("..."), awk system("...")) are handed back for analysis as shell commands. A shell
// call whose command is computed cannot be judged: ask, or deny when the code also decodes or
// builds strings character by character (chr(114)+...). Environment dumps, socket-plus-shell
// (reverse shells), fork loops, download-and-exec and deletion of protected paths are findings
// of their own.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "execpolicy/command_analysis.h"

namespace clawtools::execpolicy {

enum class Language { kPython, kPerl, kRuby, kNode, kPhp, kLua, kAwk };

struct CodeFinding {
  Decision decision;
  std::string group;
  std::string rule;  // without the group prefix
  std::string reason;
};

struct CodeScan {
  std::vector<std::string> shell_commands;              // run through a shell
  std::vector<std::vector<std::string>> argv_commands;  // executed directly
  std::vector<CodeFinding> findings;
};

CodeScan ScanInlineCode(Language lang, std::string_view code);

// "python3.11" -> kPython, "nodejs" -> kNode, ...; false for other programs.
bool InterpreterLanguage(std::string_view program, Language* lang);

}  // namespace clawtools::execpolicy
