#include "execpolicy/invocation.h"

#include <algorithm>
#include <cctype>

#include "execpolicy/rules.h"

namespace clawtools::execpolicy {

bool RedirectInfo::IsWrite() const {
  if (op == ">&" || op == "<&") {
    const std::string& t = target.text;
    return !t.empty() && t != "-" && !std::all_of(t.begin(), t.end(), ::isdigit);
  }
  return op == ">" || op == ">>" || op == ">|" || op == "&>" || op == "&>>" || op == "<>";
}

const std::string& Invocation::Program() const {
  if (!program_) {
    program_.emplace();
    if (!argv.empty()) {
      const std::string& s = argv[0].text;
      *program_ = s.substr(s.rfind('/') == std::string::npos ? 0 : s.rfind('/') + 1);
      if (program_->ends_with(".exe")) program_->resize(program_->size() - 4);
    }
  }
  return *program_;
}

const std::string& Invocation::Canonical() const {
  if (!canonical_) canonical_ = Canonical(false);
  return *canonical_;
}

std::string QuoteField(const Field& f) {
  const std::string& t = f.text;
  if (f.dynamic || f.glob) return t;  // shown as written: $X, $(...), *.o
  if (t.empty()) return "''";
  const bool plain = std::all_of(t.begin(), t.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_@%+=:,./-~^{}").find(c) != std::string_view::npos;
  });
  if (plain) return t;
  std::string q = "'";
  for (char c : t) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string Invocation::Canonical(bool with_redirects) const {
  std::string s;
  for (const auto& [name, value] : env) {
    if (!s.empty()) s += ' ';
    s += name + "=" + QuoteField(value);
  }
  for (const Field& f : argv) {
    if (!s.empty()) s += ' ';
    s += QuoteField(f);
  }
  if (with_redirects) {
    for (const RedirectInfo& r : redirects) {
      if (!s.empty()) s += ' ';
      s += (r.fd >= 0 ? std::to_string(r.fd) : "") + r.op + " " + QuoteField(r.target);
    }
  }
  return s;
}

Findings::Findings(const AnalysisOptions& options) : options_(options) {}

bool Findings::GroupEnabled(std::string_view group) const {
  if (group == "analysis") return true;
  auto has = [&](const std::vector<std::string>& list) {
    return std::find(list.begin(), list.end(), group) != list.end();
  };
  if (has(options_.disabled_groups)) return false;
  if (has(options_.enabled_groups)) return true;
  for (const GroupInfo& g : RuleGroups()) {
    if (g.name == group) return g.default_enabled;
  }
  return true;  // a group this build does not know: fail closed
}

void Findings::Add(Decision d, std::string_view group, std::string_view name, std::string reason,
                   std::string matched) {
  if (d == Decision::kAllow || !GroupEnabled(group)) return;
  if (decisive_ && (decisive_->decision == Decision::kDeny || d == Decision::kAsk)) return;
  decisive_ = Finding{d, std::string(group), std::string(group) + "." + std::string(name),
                      std::move(reason), std::move(matched)};
}

}  // namespace clawtools::execpolicy
