#include "approval/terminal_approver.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <string>

namespace clawtools {
namespace {

// Closes the descriptor on every path out of Prompt.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

void WriteAll(int fd, std::string_view s) {
  while (!s.empty()) {
    ssize_t n = ::write(fd, s.data(), s.size());
    if (n <= 0) return;
    s.remove_prefix(static_cast<size_t>(n));
  }
}

}  // namespace

bool HasTerminal() {
  Fd tty(::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC));
  return tty.get() >= 0;
}

std::optional<ApprovalDecision> ParseTerminalAnswer(std::string_view line) {
  std::string s;
  for (char c : line) {
    if (!std::isspace(static_cast<unsigned char>(c)))
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (s == "o" || s == "once" || s == "y" || s == "yes") return ApprovalDecision::kAllowOnce;
  if (s == "a" || s == "always") return ApprovalDecision::kAllowAlways;
  if (s == "d" || s == "deny" || s == "n" || s == "no") return ApprovalDecision::kDeny;
  return std::nullopt;
}

std::optional<ApprovalDecision> TerminalApprover::Prompt(const ApprovalRequest& request,
                                                         std::stop_token stop) {
  Fd tty(::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (tty.get() < 0) return std::nullopt;
  std::string text = "\nclawtools: approval needed (" + request.id +
                     ")\n  command: " + request.canonical + "\n  cwd:     " + request.cwd +
                     "\n  why:     " + request.rule +
                     (request.reason.empty() ? "" : ": " + request.reason) +
                     "\nAllow? [o]nce / [a]lways / [d]eny: ";
  WriteAll(tty.get(), text);
  std::string line;
  while (!stop.stop_requested()) {
    pollfd p{tty.get(), POLLIN, 0};
    // Short polls so a decision made elsewhere (or expiry) ends the prompt promptly.
    int ready = ::poll(&p, 1, 100);
    if (ready <= 0) continue;
    char buf[256];
    ssize_t n = ::read(tty.get(), buf, sizeof buf);
    if (n <= 0) return std::nullopt;
    line.append(buf, static_cast<size_t>(n));
    for (size_t nl; (nl = line.find('\n')) != std::string::npos; line.erase(0, nl + 1)) {
      if (auto answer = ParseTerminalAnswer(std::string_view(line).substr(0, nl))) return answer;
      WriteAll(tty.get(), "Please answer o, a or d: ");
    }
  }
  WriteAll(tty.get(), "\n(decided elsewhere or expired)\n");
  return std::nullopt;
}

}  // namespace clawtools
