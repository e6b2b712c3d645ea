// What the model sees of a command's output: all of it when it fits `max_chars`, otherwise a
// head and a tail with a note in between. The full output (as captured: up to the runner's
// head + tail buffers) is then saved under .clawtools/exec/ in the workspace, and the note
// names that workspace-relative path so read_file can page through it (Codex keeps only 10 KiB;
// GoClaw cut at 1 MiB with no way back to the rest).
#pragma once

#include <string>

#include "sandbox/run.h"

namespace clawtools {

// `workspace` receives the full-output file; empty means "do not save".
std::string ReportOutput(const sandbox::RunOutcome& out, size_t max_chars,
                         const std::string& workspace);

// Cuts `s` to at most `n` bytes without splitting a UTF-8 sequence; from the front or the back.
std::string Utf8Head(std::string_view s, size_t n);
std::string Utf8Tail(std::string_view s, size_t n);

}  // namespace clawtools
