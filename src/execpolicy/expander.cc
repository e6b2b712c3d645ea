#include "execpolicy/expander.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "execpolicy/parser.h"

namespace clawtools::execpolicy {

using namespace std::string_view_literals;
namespace {

using Kind = WordPart::Kind;

// One piece of a word after parameter expansion, before field splitting.
struct Segment {
  std::string text;
  bool splittable = false;  // unquoted expansion result: subject to $IFS splitting
  bool globbable = false;   // unquoted literal: *, ? and [ are active
  bool dynamic = false;
  unsigned taint = kTaintNone;
  const Script* process_sub = nullptr;
};

// Brace expansion works on characters of unquoted literals; every other part is opaque.
struct Atom {
  char c = 0;                      // an unquoted literal character
  const WordPart* part = nullptr;  // or a whole part
};
using Atoms = std::vector<Atom>;

bool IsChar(const Atom& a, char c) {
  return !a.part && a.c == c;
}

std::optional<long> ParseLong(std::string_view s) {
  long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// {x..y[..step]} over integers or single letters; nullopt when it is not a sequence.
std::optional<std::vector<std::string>> Sequence(const Atoms& inner) {
  std::string s;
  for (const Atom& a : inner) {
    if (a.part) return std::nullopt;
    s += a.c;
  }
  size_t dots = s.find("..");
  if (dots == std::string::npos) return std::nullopt;
  std::string_view first(s.data(), dots), rest(s.data() + dots + 2, s.size() - dots - 2);
  std::string_view last = rest, step_text;
  if (size_t d2 = rest.find(".."); d2 != std::string_view::npos) {
    last = rest.substr(0, d2);
    step_text = rest.substr(d2 + 2);
  }
  long step = 1;
  if (!step_text.empty()) {
    auto st = ParseLong(step_text);
    if (!st) return std::nullopt;
    step = *st == 0 ? 1 : std::labs(*st);
  }
  std::vector<std::string> out;
  auto a = ParseLong(first), b = ParseLong(last);
  if (a && b) {
    if (std::labs(*b - *a) / step >= static_cast<long>(kMaxBraceFields))
      throw ExpansionTooComplex{};
    for (long v = *a; *a <= *b ? v <= *b : v >= *b; v += *a <= *b ? step : -step) {
      out.push_back(std::to_string(v));
    }
    return out;
  }
  if (first.size() == 1 && last.size() == 1 && std::isalpha(static_cast<unsigned char>(first[0])) &&
      std::isalpha(static_cast<unsigned char>(last[0]))) {
    int x = first[0], y = last[0];
    for (int v = x; x <= y ? v <= y : v >= y; v += x <= y ? step : -step) {
      out.push_back(std::string(1, static_cast<char>(v)));
    }
    return out;
  }
  return std::nullopt;
}

void BraceExpand(const Atoms& atoms, std::vector<Atoms>& out) {
  for (size_t i = 0; i < atoms.size(); ++i) {
    if (!IsChar(atoms[i], '{')) continue;
    int depth = 0;
    std::vector<size_t> commas;
    size_t close = 0;
    for (size_t j = i + 1; j < atoms.size() && !close; ++j) {
      if (IsChar(atoms[j], '{')) ++depth;
      if (IsChar(atoms[j], '}')) {
        if (depth == 0) close = j;
        --depth;
      }
      if (IsChar(atoms[j], ',') && depth == 0) commas.push_back(j);
    }
    if (!close) continue;
    Atoms prefix(atoms.begin(), atoms.begin() + i), suffix(atoms.begin() + close + 1, atoms.end());
    std::vector<Atoms> alternatives;
    if (commas.empty()) {
      auto seq = Sequence(Atoms(atoms.begin() + i + 1, atoms.begin() + close));
      if (!seq) continue;
      for (const auto& v : *seq) {
        Atoms alt;
        for (char c : v) alt.push_back({c});
        alternatives.push_back(std::move(alt));
      }
    } else {
      size_t from = i + 1;
      commas.push_back(close);
      for (size_t c : commas) {
        alternatives.emplace_back(atoms.begin() + from, atoms.begin() + c);
        from = c + 1;
      }
    }
    for (auto& alt : alternatives) {
      Atoms combined = prefix;
      combined.insert(combined.end(), alt.begin(), alt.end());
      combined.insert(combined.end(), suffix.begin(), suffix.end());
      BraceExpand(combined, out);
      if (out.size() > kMaxBraceFields) throw ExpansionTooComplex{};
    }
    return;
  }
  out.push_back(atoms);
}

class Expander {
 public:
  Expander(Env& env, ExpansionHooks& hooks) : env_(env), hooks_(hooks) {}

  void Expand(const Word& word, ExpandMode mode, std::vector<Field>& fields) {
    if (mode == ExpandMode::kSingle || !HasBraceCandidate(word)) {
      ExpandParts(word.parts, mode, fields);
      return;
    }
    Atoms atoms;
    for (const auto& p : word.parts) {
      if (p.kind == Kind::kLiteral) {
        for (char c : p.text) atoms.push_back({c});
      } else {
        atoms.push_back({0, &p});
      }
    }
    std::vector<Atoms> variants;
    BraceExpand(atoms, variants);
    for (const Atoms& v : variants) {
      std::vector<WordPart> parts;
      for (const Atom& a : v) {
        if (a.part) {
          parts.push_back(*a.part);
        } else if (!parts.empty() && parts.back().kind == Kind::kLiteral &&
                   parts.back().source.empty()) {
          parts.back().text += a.c;
        } else {
          parts.push_back({Kind::kLiteral, std::string(1, a.c)});
        }
      }
      ExpandParts(parts, mode, fields);
    }
  }

  // kSingle yields exactly one field (Split always pushes one).
  Field ExpandSingle(std::span<const WordPart> parts) {
    std::vector<Field> fields;
    ExpandParts(parts, ExpandMode::kSingle, fields);
    return std::move(fields[0]);
  }

 private:
  // Unquoted *, ? or a [...] class make a glob pattern.
  static bool HasGlob(const std::string& text) {
    return std::any_of(text.begin(), text.end(), [](char c) { return c == '*' || c == '?'; }) ||
           (text.find('[') != std::string::npos &&
            text.find(']', text.find('[') + 1) != std::string::npos);
  }

  static bool HasBraceCandidate(const Word& w) {
    for (const auto& p : w.parts) {
      if (p.kind == Kind::kLiteral && p.text.find('{') != std::string::npos) return true;
    }
    return false;
  }

  void ExpandParts(std::span<const WordPart> parts, ExpandMode mode, std::vector<Field>& out) {
    // Most words are one literal or quoted part: the field is its text, without segments.
    if (parts.size() == 1 && (parts[0].kind == Kind::kLiteral || parts[0].kind == Kind::kQuoted)) {
      const std::string& text = parts[0].text;
      Budget(text.size());
      Field f{text};
      f.glob = parts[0].kind == Kind::kLiteral && HasGlob(text);
      out.push_back(std::move(f));
      return;
    }
    std::vector<Segment> segs;
    for (size_t i = 0; i < parts.size(); ++i) Collect(parts[i], /*quoted=*/false, segs);
    Split(segs, mode, out);
  }

  void Budget(size_t n) {
    hooks_.expanded_bytes += n;
    if (hooks_.expanded_bytes > kMaxExpandedBytes) throw ExpansionTooComplex{};
  }

  void Collect(const WordPart& p, bool quoted, std::vector<Segment>& segs) {
    switch (p.kind) {
      case Kind::kLiteral:
        Budget(p.text.size());
        segs.push_back({p.text, false, !quoted});
        return;
      case Kind::kQuoted:
        Budget(p.text.size());
        segs.push_back({p.text});
        return;
      case Kind::kDoubleQuoted: {
        // "" is an empty field of its own, even when nothing is inside.
        segs.push_back({});
        for (const auto& c : p.children) Collect(c, /*quoted=*/true, segs);
        return;
      }
      case Kind::kParam: {
        Segment s = Param(p);
        s.splittable = !quoted && !s.dynamic;
        Budget(s.text.size());
        segs.push_back(std::move(s));
        return;
      }
      case Kind::kCommandSub: {
        SubstitutionResult r = hooks_.CommandSubstitution(*p.script);
        Segment s;
        s.taint = r.taint;
        if (r.output) {
          s.text = *r.output;
          while (!s.text.empty() && s.text.back() == '\n') s.text.pop_back();
          s.splittable = !quoted;
        } else {
          s.text = p.source;
          s.dynamic = true;
        }
        Budget(s.text.size());
        segs.push_back(std::move(s));
        return;
      }
      case Kind::kProcessSub: {
        Segment s{p.source};
        s.dynamic = true;
        s.taint = hooks_.ProcessSubstitution(*p.script) | kTaintProcessSub;
        s.process_sub = p.script.get();
        segs.push_back(std::move(s));
        return;
      }
      case Kind::kArith: {
        std::vector<Segment> inner;  // for the substitutions inside
        for (const auto& c : p.children) Collect(c, true, inner);
        Segment s{p.source};
        s.dynamic = true;
        for (const auto& i : inner) s.taint |= i.taint;
        segs.push_back(std::move(s));
        return;
      }
    }
  }

  // The value of the argument word of ${x:-word} and friends.
  Segment ArgumentValue(const WordPart& p) {
    std::vector<Segment> segs;
    for (const auto& c : p.children) Collect(c, /*quoted=*/true, segs);
    Segment s;
    for (auto& x : segs) {
      s.text += x.text;
      s.dynamic = s.dynamic || x.dynamic;
      s.taint |= x.taint;
    }
    return s;
  }

  Segment Unknown(const WordPart& p, unsigned taint = kTaintNone) {
    Segment s{p.source};
    s.dynamic = true;
    s.taint = taint;
    if (IsSecretVariableName(p.text) && !env_.Provided(p.text)) s.taint |= kTaintSecretVar;
    return s;
  }

  // Looks a name up: "X", "X[1]", "X[@]", "1", "@", "#".
  std::optional<Variable> Lookup(const std::string& name) {
    if (name == "@" || name == "*") {
      if (!env_.positional_known) return std::nullopt;
      Variable v{true};
      v.is_array = true;
      v.elements.assign(env_.positional.begin() + std::min<size_t>(1, env_.positional.size()),
                        env_.positional.end());
      for (size_t i = 0; i < v.elements.size(); ++i) v.value += (i ? " " : "") + v.elements[i];
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(name[0]))) {
      auto n = ParseLong(name);
      if (!env_.positional_known || !n) return std::nullopt;
      Variable v{true};
      if (*n < static_cast<long>(env_.positional.size())) v.value = env_.positional[*n];
      return v;
    }
    if (name == "#") {
      if (!env_.positional_known) return std::nullopt;
      return Variable{true,
                      std::to_string(env_.positional.empty() ? 0 : env_.positional.size() - 1)};
    }
    std::string base = name, index;
    if (size_t b = name.find('['); b != std::string::npos) {
      base = name.substr(0, b);
      index = name.substr(b + 1, name.size() - b - 2);
    }
    const Variable* v = env_.Find(base);
    if (!v || !v->known) return std::nullopt;
    if (index.empty()) {
      Variable r = *v;
      if (v->is_array) r.value = v->elements.empty() ? "" : v->elements[0];
      r.is_array = false;
      return r;
    }
    if (index == "@" || index == "*") {
      Variable r = *v;
      if (!v->is_array) r.elements = {v->value};
      r.value.clear();
      for (size_t i = 0; i < r.elements.size(); ++i) r.value += (i ? " " : "") + r.elements[i];
      return r;
    }
    auto n = ParseLong(index);
    if (!n) return std::nullopt;
    Variable r{true};
    r.taint = v->taint;
    const auto& els = v->is_array ? v->elements : std::vector<std::string>{v->value};
    if (*n >= 0 && *n < static_cast<long>(els.size())) r.value = els[*n];
    return r;
  }

  static std::string RemoveAffix(const std::string& value, const std::string& pattern, bool prefix,
                                 bool longest) {
    const size_t n = value.size();
    for (size_t k = 0; k <= n; ++k) {
      size_t len = longest ? n - k : k;
      std::string candidate = prefix ? value.substr(0, len) : value.substr(n - len);
      if (fnmatch(pattern.c_str(), candidate.c_str(), 0) == 0) {
        return prefix ? value.substr(len) : value.substr(0, n - len);
      }
    }
    return value;
  }

  static std::string Replace(const std::string& value, const std::string& op, std::string arg) {
    size_t slash = arg.find('/');
    std::string pattern = arg.substr(0, slash);
    std::string repl = slash == std::string::npos ? "" : arg.substr(slash + 1);
    if (pattern.empty()) return value;
    // Longest match at each position, as bash does; patterns are globs.
    auto match_at = [&](size_t i) -> size_t {
      for (size_t len = value.size() - i; len > 0; --len) {
        if (op == "/%" && i + len != value.size()) continue;
        if (fnmatch(pattern.c_str(), value.substr(i, len).c_str(), 0) == 0) return len;
      }
      return 0;
    };
    std::string out;
    size_t i = 0;
    bool done = false;
    while (i < value.size()) {
      size_t len = done ? 0 : match_at(i);
      if (len) {
        out += repl;
        i += len;
        if (op != "//") done = true;
      } else {
        if (op == "/#") done = true;
        out += value[i++];
      }
    }
    return out;
  }

  Segment Param(const WordPart& p) {
    const std::string& op = p.op;
    if (op == "indirect") {
      auto ref = Lookup(p.text);
      if (!ref) return Unknown(p);
      WordPart target = p;
      target.text = ref->value;
      target.op.clear();
      return ref->value.empty() ? Segment{} : Param(target);
    }
    auto var = Lookup(p.text);
    if (p.text == "IFS" && !var && !env_.Find("IFS")) var = Variable{true, " \t\n"};
    if (op == "length") return var ? Segment{std::to_string(var->value.size())} : Unknown(p);
    if (op == ":-" || op == "-" || op == ":=" || op == "=" || op == ":?" || op == "?") {
      if (!var) return Unknown(p);
      if (!var->value.empty() || op.size() == 1)
        return {var->value, false, false, false, var->taint};
      Segment s = ArgumentValue(p);
      if (op.back() == '=' && !s.dynamic) env_.SetString(p.text, s.text);
      return s;
    }
    if (op == ":+" || op == "+") {
      if (!var) return Unknown(p);
      return var->value.empty() ? Segment{} : ArgumentValue(p);
    }
    if (!var) {
      return Unknown(p, op == "@" && !p.children.empty() && p.children[0].text == "P" ? kTaintPrompt
                                                                                      : kTaintNone);
    }
    Segment s{var->value};
    s.taint = var->taint;
    if (op.empty()) return s;
    Segment arg = ArgumentValue(p);
    if (arg.dynamic) return Unknown(p, var->taint);
    if (op == "#" || op == "##" || op == "%" || op == "%%") {
      s.text = RemoveAffix(var->value, arg.text, op[0] == '#', op.size() == 2);
    } else if (op[0] == '/') {
      s.text = Replace(var->value, op, arg.text);
    } else if (op == "^^" || op == ",,") {
      for (char& c : s.text) c = op == "^^" ? std::toupper(c) : std::tolower(c);
    } else if ((op == "^" || op == ",") && !s.text.empty()) {
      s.text[0] = op == "^" ? std::toupper(s.text[0]) : std::tolower(s.text[0]);
    } else if (op == ":") {
      size_t colon = arg.text.find(':');
      auto off = ParseLong(arg.text.substr(0, colon));
      if (!off) return Unknown(p, var->taint);
      long start = *off < 0 ? std::max(0L, static_cast<long>(s.text.size()) + *off) : *off;
      long len = static_cast<long>(s.text.size());
      if (colon != std::string::npos) {
        auto l = ParseLong(arg.text.substr(colon + 1));
        if (!l || *l < 0) return Unknown(p, var->taint);
        len = *l;
      }
      s.text = start < static_cast<long>(s.text.size()) ? s.text.substr(start, len) : "";
    } else if (op == "@") {
      if (arg.text == "E") {
        s.text = DecodeAnsiC(s.text);
      } else if (arg.text == "U" || arg.text == "L" || arg.text == "u") {
        for (size_t i = 0; i < s.text.size() && (arg.text != "u" || i == 0); ++i) {
          s.text[i] = arg.text == "L" ? std::tolower(s.text[i]) : std::toupper(s.text[i]);
        }
      } else if (arg.text != "Q") {
        // @P (prompt expansion runs substitutions), @A, @K, @a: not modelled.
        return Unknown(p, var->taint | (arg.text == "P" ? kTaintPrompt : kTaintNone));
      }
    } else {
      return Unknown(p, var->taint);
    }
    return s;
  }

  void Split(const std::vector<Segment>& segs, ExpandMode mode, std::vector<Field>& out) {
    std::string_view ifs = " \t\n";
    if (const Variable* v = env_.Find("IFS"); v && v->known) ifs = v->value;
    // std::string_view::find would call memchr for every character of the value.
    auto in_ifs = [&](char c) { return std::find(ifs.begin(), ifs.end(), c) != ifs.end(); };
    Field cur;
    bool has = false;
    auto push = [&] {
      out.push_back(std::move(cur));
      cur = Field{};
      has = false;
    };
    auto take = [&](const Segment& s) {
      cur.dynamic = cur.dynamic || s.dynamic;
      cur.taint |= s.taint;
      if (s.process_sub) cur.process_sub = s.process_sub;
    };
    for (const Segment& s : segs) {
      take(s);
      if (mode == ExpandMode::kWords && s.splittable) {
        for (char c : s.text) {
          if (!in_ifs(c)) {
            cur.text += c;
            has = true;
          } else if (c == ' ' || c == '\t' || c == '\n') {
            if (has) push();
            take(s);
          } else {
            push();
            take(s);
          }
        }
        continue;
      }
      if (s.globbable && HasGlob(s.text)) cur.glob = true;
      cur.text += s.text;
      has = has || !s.splittable || !s.text.empty();
    }
    if (has || mode == ExpandMode::kSingle) out.push_back(std::move(cur));
  }

  Env& env_;
  ExpansionHooks& hooks_;
};

}  // namespace

Env::Env() = default;

const Variable* Env::Find(const std::string& name) const {
  auto it = vars_.find(name);
  return it == vars_.end() ? nullptr : &it->second;
}

void Env::SetString(const std::string& name, std::string value) {
  Variable v{true, std::move(value)};
  vars_[name] = std::move(v);
}

void Env::MergeBranch(const Env& branch) {
  for (const auto& [name, v] : branch.vars_) {
    auto it = vars_.find(name);
    if (it == vars_.end() || it->second.value != v.value || it->second.known != v.known ||
        it->second.elements != v.elements) {
      vars_[name] = Variable{};
    }
  }
  if (branch.positional != positional || branch.positional_known != positional_known) {
    positional_known = false;
  }
  if (branch.cwd != cwd) cwd.reset();
}

std::vector<Field> ExpandWord(const Word& word, Env& env, ExpansionHooks& hooks, ExpandMode mode) {
  std::vector<Field> fields;
  Expander(env, hooks).Expand(word, mode, fields);
  return fields;
}

void ExpandWord(const Word& word, Env& env, ExpansionHooks& hooks, ExpandMode mode,
                std::vector<Field>& out) {
  Expander(env, hooks).Expand(word, mode, out);
}

Field ExpandSingle(std::span<const WordPart> parts, Env& env, ExpansionHooks& hooks) {
  return Expander(env, hooks).ExpandSingle(parts);
}

bool IsSecretVariableName(std::string_view name) {
  std::string up(name);
  for (char& c : up) c = std::toupper(static_cast<unsigned char>(c));
  for (std::string_view k : std::initializer_list<std::string_view>{
           "KEY"sv, "TOKEN"sv, "SECRET"sv, "PASSWORD"sv, "PASSWD"sv, "CREDENTIAL"sv, "DSN"sv,
           "DATABASE_URL"sv, "AUTH"sv, "COOKIE"sv, "SESSION"sv}) {
    if (up.find(k) != std::string::npos) return true;
  }
  for (std::string_view p : std::initializer_list<std::string_view>{
           "CLAWTOOLS_"sv, "GOCLAW_"sv, "AWS_"sv, "OPENAI_"sv, "ANTHROPIC_"sv}) {
    if (up.starts_with(p)) return true;
  }
  return false;
}

}  // namespace clawtools::execpolicy
