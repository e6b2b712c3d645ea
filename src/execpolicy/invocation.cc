#include "execpolicy/invocation.h"

#include <algorithm>
#include <array>
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

namespace {

// Bytes a word may consist of and still be shown without quotes.
constexpr auto kBare = [] {
  std::array<bool, 256> bare{};
  for (int c = 0; c < 256; ++c) {
    bare[c] =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        std::string_view("_@%+=:,./-~^{}").find(static_cast<char>(c)) != std::string_view::npos;
  }
  return bare;
}();

void AppendQuoted(std::string& out, const Field& f) {
  const std::string& t = f.text;
  if (f.dynamic || f.glob) {  // shown as written: $X, $(...), *.o
    out += t;
    return;
  }
  if (t.empty()) {
    out += "''";
    return;
  }
  if (std::all_of(t.begin(), t.end(),
                  [](char c) { return kBare[static_cast<unsigned char>(c)]; })) {
    out += t;
    return;
  }
  out += '\'';
  for (char c : t) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += '\'';
}

}  // namespace

std::string QuoteField(const Field& f) {
  std::string q;
  AppendQuoted(q, f);
  return q;
}

std::string Invocation::Canonical(bool with_redirects) const {
  std::string s;
  size_t size = 0;  // without quoting: a good guess to allocate once
  for (const auto& [name, value] : env) size += name.size() + value.text.size() + 2;
  for (const Field& f : argv) size += f.text.size() + 1;
  s.reserve(size);
  for (const auto& [name, value] : env) {
    if (!s.empty()) s += ' ';
    s += name;
    s += '=';
    AppendQuoted(s, value);
  }
  for (const Field& f : argv) {
    if (!s.empty()) s += ' ';
    AppendQuoted(s, f);
  }
  if (with_redirects) {
    for (const RedirectInfo& r : redirects) {
      if (!s.empty()) s += ' ';
      if (r.fd >= 0) s += std::to_string(r.fd);
      s += r.op;
      s += ' ';
      AppendQuoted(s, r.target);
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
