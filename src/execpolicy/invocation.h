// What the deny rules look at: one command that would run, in canonical form, and the sink
// that collects their findings.
//
// The analyzer builds an Invocation for every simple command, after expansion and after
// unwrapping (the `rm` inside `sudo timeout 5 rm`, each gets its own Invocation). Rules never
// see raw text: only fields (quote-removed, expanded words), redirections and the data that
// flows in on stdin.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "execpolicy/command_analysis.h"
#include "execpolicy/expander.h"

namespace clawtools::execpolicy {

struct RedirectInfo {
  std::string op;  // ">", ">>", "<", "&>", ...
  int fd = -1;
  Field target;
  bool IsWrite() const;  // writes to the target file (not 2>&1-style fd duplication)
  bool IsRead() const { return op == "<" || op == "<>"; }
};

// Data arriving on stdin: from a pipe, a here-doc or here-string, or a < redirection.
struct Stream {
  bool present = false;             // something other than the terminal
  std::optional<std::string> text;  // statically known content
  unsigned taint = kTaintNone;
  std::string origin;  // canonical producer, e.g. "curl -s https://x"
};

struct Invocation {
  std::vector<Field> argv;
  std::vector<std::pair<std::string, Field>> env;  // NAME=value prefixes, also from env/sudo
  std::vector<RedirectInfo> redirects;
  Stream in;

  const std::string& Word(size_t i) const { return argv[i].text; }
  // Basename of argv[0], e.g. "rm" for "/bin/rm". Cached: rules ask for it many times.
  const std::string& Program() const;
  // argv (and redirections when `with_redirects`) as one shell-quoted line; cached without.
  std::string Canonical(bool with_redirects) const;
  const std::string& Canonical() const;

 private:
  mutable std::optional<std::string> program_, canonical_;
};

// Shell-quotes one field for display: plain words stay bare, others get single quotes.
std::string QuoteField(const Field& f);

struct Finding {
  Decision decision = Decision::kAllow;
  std::string group;  // "destructive_fs", ...; "analysis" for fail-closed findings
  std::string rule;   // "destructive_fs.rm_recursive_critical"
  std::string reason;
  std::string matched;
};

// Collects findings; keeps the first deny, else the first ask. Findings of disabled groups
// are dropped here, so that rules need not know about configuration.
class Findings {
 public:
  explicit Findings(const AnalysisOptions& options);

  bool GroupEnabled(std::string_view group) const;
  // AnalysisOptions::provided_variables.
  const std::vector<std::string>& provided_variables() const { return options_.provided_variables; }
  void Add(Decision d, std::string_view group, std::string_view name, std::string reason,
           std::string matched);
  void Deny(std::string_view group, std::string_view name, std::string reason,
            std::string matched) {
    Add(Decision::kDeny, group, name, std::move(reason), std::move(matched));
  }
  void Ask(std::string_view group, std::string_view name, std::string reason, std::string matched) {
    Add(Decision::kAsk, group, name, std::move(reason), std::move(matched));
  }
  const std::optional<Finding>& decisive() const { return decisive_; }
  std::optional<Finding> TakeDecisive() && { return std::move(decisive_); }
  bool denied() const { return decisive_ && decisive_->decision == Decision::kDeny; }

 private:
  const AnalysisOptions& options_;
  std::optional<Finding> decisive_;
};

}  // namespace clawtools::execpolicy
