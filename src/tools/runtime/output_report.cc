#include "tools/runtime/output_report.h"

#include <unistd.h>

#include <atomic>
#include <chrono>

#include "tools/fs/workspace_fs.h"

namespace clawtools {
namespace {

bool Continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

std::string SaveFull(const sandbox::RunOutcome& out, const std::string& workspace) {
  auto fs = WorkspaceFs::Open(workspace, {});
  if (!fs) return "";
  static std::atomic<unsigned> seq{0};
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                .count();
  std::string rel = ".clawtools/exec/" + std::to_string(ms) + "-" + std::to_string(::getpid()) +
                    "-" + std::to_string(seq++) + ".log";
  std::string full = out.head;
  if (out.dropped_bytes() > 0)
    full +=
        "\n[... " + std::to_string(out.dropped_bytes()) + " bytes not kept by the gateway ...]\n";
  full += out.tail;
  auto w = (*fs)->WriteFileAtomic(rel, full);
  return w ? w->rel : "";
}

}  // namespace

std::string Utf8Head(std::string_view s, size_t n) {
  if (s.size() <= n) return std::string(s);
  while (n > 0 && Continuation(s[n])) --n;
  return std::string(s.substr(0, n));
}

std::string Utf8Tail(std::string_view s, size_t n) {
  if (s.size() <= n) return std::string(s);
  size_t start = s.size() - n;
  while (start < s.size() && Continuation(s[start])) ++start;
  return std::string(s.substr(start));
}

std::string ReportOutput(const sandbox::RunOutcome& out, size_t max_chars,
                         const std::string& workspace) {
  if (out.total_bytes == 0) return "(no output)";
  if (out.total_bytes <= max_chars) return out.head + out.tail;
  std::string all_kept = out.head + out.tail;
  std::string head = Utf8Head(out.head, max_chars / 2);
  std::string tail = Utf8Tail(all_kept, max_chars - head.size());
  uint64_t omitted = out.total_bytes - head.size() - tail.size();
  std::string saved = workspace.empty() ? "" : SaveFull(out, workspace);
  std::string note = "\n[... " + std::to_string(omitted) + " of " +
                     std::to_string(out.total_bytes) + " bytes omitted; ";
  note += saved.empty() ? "the full output could not be saved"
                        : "full output in " + saved + " (read_file can page it)";
  note += " ...]\n";
  return head + note + tail;
}

}  // namespace clawtools
