#include "execpolicy/parser.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <utility>

namespace clawtools::execpolicy {
namespace {

using Kind = WordPart::Kind;

struct Failure {
  ParseError error;
};

[[noreturn]] void Fail(std::string message, bool too_complex = false) {
  throw Failure{{std::move(message), too_complex}};
}

constexpr auto kMeta = [] {
  std::array<bool, 256> meta{};
  for (char c : std::string_view(" \t\n;&|()<>")) meta[static_cast<unsigned char>(c)] = true;
  return meta;
}();
bool IsMeta(char c) {
  return kMeta[static_cast<unsigned char>(c)];
}
// Characters that start quoting, an escape or an expansion inside a word.
bool IsWordSpecial(char c) {
  return c == '\\' || c == '\'' || c == '"' || c == '$' || c == '`';
}
// ASCII, as bash's names are (and what isalpha means in the C locale).
bool IsNameStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsNameChar(char c) {
  return IsNameStart(c) || (c >= '0' && c <= '9');
}

void AppendUtf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | ((cp >> 18) & 0x07));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reserved words are recognised only where a command may start.
constexpr std::string_view kReserved[] = {
    "if",  "then", "elif",   "else",     "fi", "do", "done", "case", "esac", "while", "until",
    "for", "in",   "select", "function", "{",  "}",  "!",    "[[",   "]]",   "time"};

bool IsReserved(std::string_view w) {
  return std::find(std::begin(kReserved), std::end(kReserved), w) != std::end(kReserved);
}

// The first characters of the reserved words: any other word is looked up no further.
constexpr auto kReservedStart = [] {
  std::array<bool, 256> start{};
  for (std::string_view w : kReserved) start[static_cast<unsigned char>(w[0])] = true;
  return start;
}();

}  // namespace

std::string DecodeAnsiC(std::string_view in) {
  std::string out;
  size_t i = 0;
  auto peek = [&] { return i < in.size() ? in[i] : '\0'; };
  while (i < in.size()) {
    char c = in[i++];
    if (c != '\\' || i >= in.size()) {
      out += c;
      continue;
    }
    char e = in[i++];
    switch (e) {
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'e':
      case 'E':
        out += '\x1b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'c':
        if (i < in.size()) out += static_cast<char>(in[i++] & 0x1F);
        break;
      case 'x':
      case 'u':
      case 'U': {
        const int max = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        unsigned long v = 0;
        int n = 0;
        while (n < max && HexValue(peek()) >= 0) {
          v = v * 16 + HexValue(in[i++]);
          ++n;
        }
        if (n == 0) {
          out += '\\';
          out += e;
        } else if (e == 'x') {
          out += static_cast<char>(v);
        } else {
          AppendUtf8(out, v);
        }
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          unsigned v = e - '0';
          for (int n = 1; n < 3 && peek() >= '0' && peek() <= '7'; ++n) v = v * 8 + (in[i++] - '0');
          out += static_cast<char>(v & 0xFF);
        } else if (e == '\\' || e == '\'' || e == '"' || e == '?') {
          out += e;
        } else {
          out += '\\';
          out += e;
        }
    }
  }
  return out;
}

namespace {

class Parser {
 public:
  Parser(std::string_view src, size_t pos, int depth) : src_(src), pos_(pos), depth_(depth) {}

  size_t pos() const { return pos_; }

  Script ParseAll() {
    Script s = ParseList({});
    SkipBlanks();
    if (!AtEnd()) Fail(std::string("unexpected '") + src_[pos_] + "'");
    return s;
  }

  // Parses a list up to `)`: the body of $( ... ) or <( ... ).
  Script ParseUntilParen() {
    Script s = ParseList({}, /*paren=*/true);
    SkipBlanks();
    if (!Eat(")")) Fail("missing ')'");
    return s;
  }

  // Parses text up to `stop` (or the end when stop is 0) as double-quoted content.
  Word ParseQuotedContent(char stop, bool heredoc) {
    Word w;
    size_t start = pos_;
    ReadDoubleQuoted(w.parts, stop, heredoc);
    w.source = std::string(src_.substr(start, pos_ - start));
    return w;
  }

 private:
  struct Depth {
    explicit Depth(Parser* p) : p(p) {
      if (++p->depth_ > kMaxParseDepth) Fail("nested too deeply", /*too_complex=*/true);
    }
    ~Depth() { --p->depth_; }
    Parser* p;
  };

  bool AtEnd() const { return pos_ >= src_.size(); }
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  bool LookingAt(std::string_view s) const {
    const std::string_view rest = src_.substr(pos_);  // throws past the end, as it always did
    if (rest.size() < s.size()) return false;
    for (size_t k = 0; k < s.size(); ++k) {  // two or three characters: no memcmp call
      if (rest[k] != s[k]) return false;
    }
    return true;
  }
  bool Eat(std::string_view s) {
    if (!LookingAt(s)) return false;
    pos_ += s.size();
    return true;
  }

  // Spaces, tabs, line continuations and comments; not newlines.
  void SkipBlanks() {
    while (!AtEnd()) {
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '\\' && Peek(1) == '\n') {
        pos_ += 2;
      } else if (c == '#') {
        while (!AtEnd() && src_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  // Newlines end here-doc lines: bodies are read after the line that introduced them.
  bool EatNewline() {
    if (Peek() != '\n') return false;
    ++pos_;
    ReadPendingHeredocs();
    return true;
  }
  void SkipNewlines() {
    for (;;) {
      SkipBlanks();
      if (!EatNewline()) return;
    }
  }

  // The reserved word at the cursor, if any (it must end at a delimiter).
  std::string_view PeekReserved() const {
    if (AtEnd() || !kReservedStart[static_cast<unsigned char>(src_[pos_])]) return {};
    size_t end = pos_;
    while (end < src_.size() && !IsMeta(src_[end]) && src_[end] != '"' && src_[end] != '\'' &&
           src_[end] != '\\' && src_[end] != '$' && src_[end] != '`' && end - pos_ < 9) {
      ++end;
    }
    std::string_view w = src_.substr(pos_, end - pos_);
    if (end < src_.size() && !IsMeta(src_[end])) return {};
    return IsReserved(w) ? w : std::string_view{};
  }
  bool EatReserved(std::string_view w) {
    SkipBlanks();
    if (Peek() != w[0] || PeekReserved() != w) return false;
    pos_ += w.size();
    return true;
  }
  void ExpectReserved(std::string_view w) {
    if (!EatReserved(w)) Fail("expected '" + std::string(w) + "'");
  }

  Script ParseList(std::initializer_list<std::string_view> stops, bool paren = false) {
    Depth d(this);
    Script script;
    for (;;) {
      SkipNewlines();
      if (AtEnd()) break;
      if (paren && Peek() == ')') break;
      if (LookingAt(";;") || LookingAt(";&")) break;
      if (stops.size() > 0) {
        const std::string_view r = PeekReserved();
        if (std::find(stops.begin(), stops.end(), r) != stops.end()) break;
      }
      ListItem item;
      item.pipeline = ParsePipeline();
      SkipBlanks();
      if (Eat("&&")) {
        item.separator = "&&";
      } else if (Eat("||")) {
        item.separator = "||";
      } else if (!LookingAt(";;") && !LookingAt(";&") && Eat(";")) {
        item.separator = ";";
      } else if (Eat("&")) {
        item.separator = "&";
      } else if (Peek() == '\n') {
        item.separator = "\n";
      }
      const bool needs_more = item.separator == "&&" || item.separator == "||";
      script.items.push_back(std::move(item));
      if (needs_more) {
        SkipNewlines();
        if (AtEnd()) Fail("expected a command after '&&' or '||'");
        continue;
      }
      if (script.items.back().separator.empty()) break;
    }
    return script;
  }

  Pipeline ParsePipeline() {
    Pipeline p;
    SkipBlanks();
    if (EatReserved("time")) {
      SkipBlanks();
      Eat("-p");
    }
    while (EatReserved("!")) p.negated = !p.negated;
    for (;;) {
      p.commands.push_back(ParseCommand());
      SkipBlanks();
      if (LookingAt("||")) break;
      if (!Eat("|&") && !Eat("|")) break;
      SkipNewlines();
    }
    return p;
  }

  CommandPtr ParseCommand() {
    Depth d(this);
    SkipBlanks();
    auto cmd = std::make_shared_for_overwrite<Command>();  // see Command: nothing to zero
    std::string_view r = PeekReserved();
    if (r == "{") {
      pos_ += 1;
      cmd->kind = Command::Kind::kGroup;
      cmd->bodies.push_back(ParseList({"}"}));
      ExpectReserved("}");
    } else if (LookingAt("((")) {
      ParseArithCommand(*cmd);
    } else if (Peek() == '(') {
      ++pos_;
      cmd->kind = Command::Kind::kSubshell;
      cmd->bodies.push_back(ParseList({}, /*paren=*/true));
      SkipBlanks();
      if (!Eat(")")) Fail("missing ')'");
    } else if (r == "if") {
      ParseIf(*cmd);
    } else if (r == "while" || r == "until") {
      pos_ += r.size();
      cmd->kind = Command::Kind::kLoop;
      cmd->text = std::string(r);
      cmd->bodies.push_back(ParseList({"do"}));
      ExpectReserved("do");
      cmd->bodies.push_back(ParseList({"done"}));
      ExpectReserved("done");
    } else if (r == "for" || r == "select") {
      ParseFor(*cmd, r.size());
    } else if (r == "case") {
      ParseCase(*cmd);
    } else if (r == "function") {
      pos_ += r.size();
      SkipBlanks();
      Word name = ReadWord();
      if (name.parts.empty()) Fail("function name expected");
      SkipBlanks();
      if (Eat("(")) {
        SkipBlanks();
        if (!Eat(")")) Fail("expected ')' after function name");
      }
      MakeFunction(*cmd, name.source);
    } else if (r == "[[") {
      pos_ += 2;
      ParseCond(*cmd);
    } else if (!r.empty() && r != "!" && r != "time") {
      Fail("unexpected '" + std::string(r) + "'");
    } else {
      ParseSimple(*cmd);
      return cmd;
    }
    ParseRedirects(*cmd);
    return cmd;
  }

  void MakeFunction(Command& cmd, std::string name) {
    SkipNewlines();
    cmd.kind = Command::Kind::kFunction;
    cmd.text = std::move(name);
    cmd.function_body = ParseCommand();
    if (cmd.function_body->kind == Command::Kind::kSimple) Fail("function body must be compound");
  }

  void ParseRedirects(Command& cmd) {
    for (;;) {
      SkipBlanks();
      if (!TryRedirect(cmd)) return;
    }
  }

  void ParseIf(Command& cmd) {
    pos_ += 2;
    cmd.kind = Command::Kind::kIf;
    cmd.bodies.push_back(ParseList({"then"}));
    ExpectReserved("then");
    cmd.bodies.push_back(ParseList({"elif", "else", "fi"}));
    for (;;) {
      if (EatReserved("elif")) {
        cmd.bodies.push_back(ParseList({"then"}));
        ExpectReserved("then");
        cmd.bodies.push_back(ParseList({"elif", "else", "fi"}));
      } else if (EatReserved("else")) {
        cmd.bodies.push_back(ParseList({"fi"}));
        ExpectReserved("fi");
        return;
      } else {
        ExpectReserved("fi");
        return;
      }
    }
  }

  void ParseFor(Command& cmd, size_t keyword_len) {
    pos_ += keyword_len;
    cmd.kind = Command::Kind::kFor;
    SkipBlanks();
    if (LookingAt("((")) {
      // for (( init; cond; step )): the expressions only matter for their substitutions.
      Command arith;
      ParseArithCommand(arith);
      cmd.words = std::move(arith.words);
    } else {
      Word var = ReadWord();
      if (var.parts.empty()) Fail("for: variable name expected");
      cmd.text = var.source;
      SkipNewlines();
      if (EatReserved("in")) {
        cmd.for_has_in = true;
        for (;;) {
          SkipBlanks();
          if (AtEnd() || Peek() == ';' || Peek() == '\n') break;
          Word w = ReadWord();
          if (w.parts.empty()) Fail("for: unexpected '" + std::string(1, Peek()) + "'");
          cmd.words.push_back(std::move(w));
        }
      }
    }
    SkipBlanks();
    Eat(";");
    SkipNewlines();
    if (EatReserved("{")) {
      cmd.bodies.push_back(ParseList({"}"}));
      ExpectReserved("}");
      return;
    }
    ExpectReserved("do");
    cmd.bodies.push_back(ParseList({"done"}));
    ExpectReserved("done");
  }

  void ParseCase(Command& cmd) {
    pos_ += 4;
    cmd.kind = Command::Kind::kCase;
    SkipBlanks();
    cmd.words.push_back(ReadWord());
    if (cmd.words[0].parts.empty()) Fail("case: word expected");
    SkipNewlines();
    ExpectReserved("in");
    for (;;) {
      SkipNewlines();
      if (EatReserved("esac")) return;
      if (AtEnd()) Fail("case: missing 'esac'");
      Eat("(");
      for (;;) {  // patterns: only their substitutions matter
        SkipBlanks();
        Word pattern = ReadWord();
        if (pattern.parts.empty()) Fail("case: pattern expected");
        cmd.words.push_back(std::move(pattern));
        SkipBlanks();
        if (!Eat("|")) break;
      }
      if (!Eat(")")) Fail("case: expected ')'");
      cmd.bodies.push_back(ParseList({"esac"}));
      SkipBlanks();
      if (!Eat(";;&") && !Eat(";;") && !Eat(";&")) {
        SkipNewlines();
        ExpectReserved("esac");
        return;
      }
    }
  }

  // (( expr )): kept as a double-quoted word so that substitutions inside are analyzed.
  void ParseArithCommand(Command& cmd) {
    pos_ += 2;
    cmd.kind = Command::Kind::kArith;
    size_t start = pos_;
    int paren = 0;
    for (;;) {
      if (AtEnd()) Fail("missing '))'");
      char c = Peek();
      if (c == '(') ++paren;
      if (c == ')') {
        if (paren == 0 && Peek(1) == ')') break;
        --paren;
      }
      ++pos_;
    }
    Parser inner(src_.substr(0, pos_), start, depth_);
    cmd.words.push_back(inner.ParseQuotedContent(0, /*heredoc=*/true));
    pos_ += 2;
  }

  void ParseCond(Command& cmd) {
    cmd.kind = Command::Kind::kCond;
    for (;;) {
      SkipNewlines();
      if (AtEnd()) Fail("missing ']]'");
      if (PeekReserved() == "]]") {
        pos_ += 2;
        return;
      }
      // Inside [[ ]] operators such as < > && || ( ) are operands of the test, not syntax.
      size_t start = pos_;
      if (Eat("&&") || Eat("||") || Eat("(") || Eat(")") || Eat("<") || Eat(">") || Eat("!")) {
        Word w;
        w.parts.push_back({Kind::kQuoted, std::string(src_.substr(start, pos_ - start))});
        w.source = w.parts[0].text;
        cmd.words.push_back(std::move(w));
        continue;
      }
      Word w = ReadWord();
      if (w.parts.empty()) Fail("[[: unexpected '" + std::string(1, Peek()) + "'");
      cmd.words.push_back(std::move(w));
    }
  }

  void ParseSimple(Command& cmd) {
    cmd.kind = Command::Kind::kSimple;
    cmd.words.reserve(4);  // one allocation for most commands rather than regrowing
    for (;;) {
      SkipBlanks();
      if (AtEnd()) break;
      if (TryRedirect(cmd)) continue;
      char c = Peek();
      if (c == '(' && cmd.words.size() == 1 && cmd.assignments.empty()) {
        ++pos_;
        SkipBlanks();
        if (!Eat(")")) Fail("syntax error near '('");
        MakeFunction(cmd, cmd.words[0].source);
        cmd.words.clear();
        ParseRedirects(cmd);
        return;
      }
      if (IsMeta(c) && !LookingAt("<(") && !LookingAt(">(")) break;
      if (cmd.words.empty() && IsAssignmentStart()) {
        cmd.assignments.push_back(ReadAssignment());
        continue;
      }
      Word w = ReadWord();
      if (w.parts.empty()) Fail(std::string("unexpected '") + c + "'");
      cmd.words.push_back(std::move(w));
    }
    if (cmd.words.empty() && cmd.assignments.empty() && cmd.redirects.empty()) {
      Fail(AtEnd() ? "empty command" : std::string("unexpected '") + Peek() + "'");
    }
  }

  bool IsAssignmentStart() const {
    size_t i = pos_;
    if (i >= src_.size() || !IsNameStart(src_[i])) return false;
    while (i < src_.size() && IsNameChar(src_[i])) ++i;
    if (i < src_.size() && src_[i] == '[') {
      while (i < src_.size() && src_[i] != ']') ++i;
      ++i;
    }
    if (i < src_.size() && src_[i] == '+') ++i;
    return i < src_.size() && src_[i] == '=';
  }

  Word ReadAssignment() {
    size_t start = pos_;
    while (src_[pos_] != '=') ++pos_;
    ++pos_;
    if (Peek() != '(') {
      Word w = ReadWord();
      w.parts.insert(
          w.parts.begin(),
          {Kind::kQuoted, std::string(src_.substr(start, pos_ - start - w.source.size()))});
      w.source = std::string(src_.substr(start, pos_ - start));
      return w;
    }
    ++pos_;
    Word w;
    w.is_array = true;
    w.parts.push_back({Kind::kQuoted, std::string(src_.substr(start, pos_ - 1 - start))});
    for (;;) {
      SkipNewlines();
      if (Eat(")")) break;
      if (AtEnd()) Fail("missing ')' in array assignment");
      Word e = ReadWord();
      if (e.parts.empty()) Fail("syntax error in array assignment");
      w.elements.push_back(std::move(e));
    }
    w.source = std::string(src_.substr(start, pos_ - start));
    return w;
  }

  bool TryRedirect(Command& cmd) {
    // Called before every word: most words cannot start a redirection, so say so at once.
    const char first = Peek();
    if (first != '<' && first != '>' && first != '&' && first != '{' &&
        !std::isdigit(static_cast<unsigned char>(first))) {
      return false;
    }
    size_t start = pos_;
    int fd = -1;
    size_t i = pos_;
    while (i < src_.size() && std::isdigit(static_cast<unsigned char>(src_[i]))) ++i;
    if (i > pos_ && i < src_.size() && (src_[i] == '<' || src_[i] == '>')) {
      if (i - pos_ > 9) Fail("file descriptor number too large");
      fd = std::stoi(std::string(src_.substr(pos_, i - pos_)));
      pos_ = i;
    } else if (Peek() == '{' && IsNameStart(Peek(1))) {
      // {varname}> file: bash allocates the descriptor; the target still matters.
      size_t j = pos_ + 1;
      while (j < src_.size() && IsNameChar(src_[j])) ++j;
      if (j < src_.size() && src_[j] == '}' && j + 1 < src_.size() &&
          (src_[j + 1] == '<' || src_[j + 1] == '>')) {
        pos_ = j + 1;
      }
    }
    if ((Peek() != '<' && Peek() != '>' && Peek() != '&') || LookingAt("<(") ||
        LookingAt(">(")) {  // every operator starts with one of those
      pos_ = start;
      return false;
    }
    static constexpr std::string_view kOps[] = {"&>>", "<<<", "<<-", "&>", ">>", ">|",
                                                "<>",  ">&",  "<&",  "<<", ">",  "<"};
    std::string_view op;
    for (auto o : kOps) {
      if (LookingAt(o) && (o[0] != '&' || fd == -1)) {
        op = o;
        break;
      }
    }
    if (op.empty()) {
      pos_ = start;
      return false;
    }
    pos_ += op.size();
    Redirect r;
    r.fd = fd;
    r.op = std::string(op);
    SkipBlanks();
    r.target = ReadWord();
    if (r.target.parts.empty()) Fail("redirection target expected after '" + r.op + "'");
    cmd.redirects.push_back(std::move(r));
    if (op == "<<" || op == "<<-") pending_.push_back({&cmd, cmd.redirects.size() - 1});
    return true;
  }

  void ReadPendingHeredocs() {
    auto pending = std::move(pending_);
    pending_.clear();
    for (auto [cmd, index] : pending) {
      Redirect& r = cmd->redirects[index];
      bool quoted = false;
      std::string delim;
      for (const auto& p : r.target.parts) {
        quoted = quoted || p.kind != Kind::kLiteral;
        delim += p.kind == Kind::kDoubleQuoted ? Flatten(p.children) : p.text;
      }
      const bool strip_tabs = r.op == "<<-";
      std::string body;
      while (!AtEnd()) {
        size_t eol = src_.find('\n', pos_);
        if (eol == std::string_view::npos) eol = src_.size();
        std::string_view line = src_.substr(pos_, eol - pos_);
        pos_ = eol < src_.size() ? eol + 1 : eol;
        if (strip_tabs) {
          while (!line.empty() && line[0] == '\t') line.remove_prefix(1);
        }
        if (line == delim) break;
        body += line;
        body += '\n';
      }
      if (quoted) {
        r.heredoc.parts.push_back({Kind::kQuoted, body});
      } else {
        Parser inner(body, 0, depth_);
        r.heredoc = inner.ParseQuotedContent(0, /*heredoc=*/true);
      }
      r.heredoc.source = body;
    }
  }

  static std::string Flatten(const std::vector<WordPart>& parts) {
    std::string s;
    for (const auto& p : parts) s += p.text;
    return s;
  }

  // A word: everything up to an unquoted metacharacter.
  Word ReadWord(char stop = 0) {
    Depth d(this);
    Word w;
    size_t start = pos_;
    std::string literal;
    auto flush = [&] {
      if (!literal.empty()) w.parts.emplace_back(Kind::kLiteral, std::move(literal));
      literal.clear();
    };
    while (!AtEnd()) {
      char c = Peek();
      if (stop ? c == stop : IsMeta(c)) {
        if (!stop && (LookingAt("<(") || LookingAt(">("))) {
          flush();
          w.parts.push_back(ReadProcessSub());
          continue;
        }
        break;
      }
      if (c == '\\') {
        if (Peek(1) == '\n') {
          pos_ += 2;
          continue;
        }
        flush();
        if (pos_ + 1 >= src_.size()) {
          ++pos_;
          break;
        }
        w.parts.emplace_back(Kind::kQuoted, std::string(1, Peek(1)));
        pos_ += 2;
      } else if (c == '\'') {
        flush();
        size_t end = src_.find('\'', pos_ + 1);
        if (end == std::string_view::npos) Fail("unterminated single quote");
        w.parts.emplace_back(Kind::kQuoted, std::string(src_.substr(pos_ + 1, end - pos_ - 1)));
        pos_ = end + 1;
      } else if (c == '"') {
        flush();
        ++pos_;
        WordPart dq{Kind::kDoubleQuoted};
        ReadDoubleQuoted(dq.children, '"', false);
        if (!Eat("\"")) Fail("unterminated double quote");
        w.parts.push_back(std::move(dq));
      } else if (c == '$' && Peek(1) == '\'') {
        flush();
        pos_ += 2;
        w.parts.emplace_back(Kind::kQuoted, ReadAnsiC());
      } else if (c == '$' && Peek(1) == '"') {
        flush();
        pos_ += 2;
        WordPart dq{Kind::kDoubleQuoted};
        ReadDoubleQuoted(dq.children, '"', false);
        if (!Eat("\"")) Fail("unterminated double quote");
        w.parts.push_back(std::move(dq));
      } else if (c == '$' || c == '`') {
        std::optional<WordPart> e = ReadDollarOrBacktick();
        if (e) {
          flush();
          w.parts.push_back(std::move(*e));
        } else {
          literal += c;
          ++pos_;
        }
      } else {
        // A run of ordinary characters is one append.
        size_t end = pos_ + 1;
        while (end < src_.size() && !(stop ? src_[end] == stop : IsMeta(src_[end])) &&
               !IsWordSpecial(src_[end])) {
          ++end;
        }
        literal.append(src_.substr(pos_, end - pos_));
        pos_ = end;
      }
    }
    flush();
    w.source = std::string(src_.substr(start, pos_ - start));
    return w;
  }

  // Content of "..." (stop '"'), of a here-doc body (heredoc: quotes are plain characters),
  // or of ${x:-...} arguments inside double quotes.
  void ReadDoubleQuoted(std::vector<WordPart>& out, char stop, bool heredoc) {
    Depth d(this);
    std::string text;
    auto flush = [&] {
      if (!text.empty()) out.emplace_back(Kind::kQuoted, std::move(text));
      text.clear();
    };
    while (!AtEnd()) {
      char c = Peek();
      if (stop && c == stop) break;
      if (c == '\\') {
        char n = Peek(1);
        if (n == '$' || n == '`' || n == '\\' || (n == '"' && !heredoc) || n == '\n' ||
            (stop == '}' && n == '}')) {
          if (n != '\n') text += n;
          pos_ += 2;
        } else {
          text += c;
          ++pos_;
        }
        continue;
      }
      if (c == '$' || c == '`') {
        std::optional<WordPart> e = ReadDollarOrBacktick();
        if (e) {
          flush();
          out.push_back(std::move(*e));
          continue;
        }
      }
      text += c;
      ++pos_;
    }
    flush();
  }

  std::string ReadAnsiC() {
    size_t end = pos_;
    while (end < src_.size() && src_[end] != '\'') end += src_[end] == '\\' ? 2 : 1;
    if (end >= src_.size()) Fail("unterminated $'...' string");
    std::string out = DecodeAnsiC(src_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return out;
  }

  // $name, ${...}, $(...), $((...)), `...`; nullopt for a lone '$'.
  std::optional<WordPart> ReadDollarOrBacktick() {
    Depth d(this);
    size_t start = pos_;
    if (Peek() == '`') {
      ++pos_;
      std::string inner;
      for (;;) {
        if (AtEnd()) Fail("unterminated backquote");
        char c = src_[pos_++];
        if (c == '`') break;
        if (c == '\\' && !AtEnd() && (Peek() == '`' || Peek() == '\\' || Peek() == '$')) {
          inner += src_[pos_++];
          continue;
        }
        inner += c;
      }
      WordPart p{Kind::kCommandSub};
      Parser sub(inner, 0, depth_);
      p.script = std::make_shared<Script>(sub.ParseAll());
      p.source = std::string(src_.substr(start, pos_ - start));
      return p;
    }
    char n = Peek(1);
    if (n == '(' && Peek(2) == '(') {
      if (auto arith = TryReadArith()) return arith;
    }
    if (n == '(') {
      pos_ += 2;
      WordPart p{Kind::kCommandSub};
      Parser sub(src_, pos_, depth_);
      p.script = std::make_shared<Script>(sub.ParseUntilParen());
      pos_ = sub.pos();
      p.source = std::string(src_.substr(start, pos_ - start));
      return p;
    }
    if (n == '{') return ReadBraceParam();
    if (IsNameStart(n)) {
      pos_ += 1;
      size_t s = pos_;
      while (!AtEnd() && IsNameChar(Peek())) ++pos_;
      WordPart p{Kind::kParam, std::string(src_.substr(s, pos_ - s))};
      p.source = std::string(src_.substr(start, pos_ - start));
      return p;
    }
    if (std::isdigit(static_cast<unsigned char>(n)) || n == '@' || n == '*' || n == '#' ||
        n == '?' || n == '-' || n == '$' || n == '!') {
      pos_ += 2;
      WordPart p{Kind::kParam, std::string(1, n)};
      p.source = std::string(src_.substr(start, 2));
      return p;
    }
    return std::nullopt;
  }

  std::optional<WordPart> TryReadArith() {
    size_t start = pos_;
    size_t i = pos_ + 3;
    int paren = 0;
    for (; i < src_.size(); ++i) {
      char c = src_[i];
      if (c == '(') ++paren;
      if (c == ')') {
        if (paren == 0) break;
        --paren;
      }
    }
    // $(( ... ) ... ) is a command substitution of a subshell, not arithmetic.
    if (i + 1 >= src_.size() || src_[i + 1] != ')') return std::nullopt;
    WordPart p{Kind::kArith, std::string(src_.substr(start + 3, i - start - 3))};
    Parser inner(src_.substr(0, i), start + 3, depth_);
    p.children = inner.ParseQuotedContent(0, /*heredoc=*/true).parts;
    pos_ = i + 2;
    p.source = std::string(src_.substr(start, pos_ - start));
    return p;
  }

  WordPart ReadBraceParam() {
    size_t start = pos_;
    pos_ += 2;
    WordPart p{Kind::kParam};
    if (Peek() == '#' && Peek(1) != '}') {
      p.op = "length";
      ++pos_;
    } else if (Peek() == '!' && Peek(1) != '}') {
      p.op = "indirect";
      ++pos_;
    }
    size_t s = pos_;
    if (IsNameStart(Peek())) {
      while (!AtEnd() && IsNameChar(Peek())) ++pos_;
    } else if (std::isdigit(static_cast<unsigned char>(Peek()))) {
      while (!AtEnd() && std::isdigit(static_cast<unsigned char>(Peek()))) ++pos_;
    } else if (std::string_view("@*#?-$!").find(Peek()) != std::string_view::npos) {
      ++pos_;
    } else {
      Fail("bad substitution");
    }
    p.text = std::string(src_.substr(s, pos_ - s));
    if (Peek() == '[') {  // array subscript: kept in the name, e.g. "X[0]" or "X[@]"
      size_t close = src_.find(']', pos_);
      if (close == std::string_view::npos) Fail("bad array subscript");
      p.text += src_.substr(pos_, close + 1 - pos_);
      pos_ = close + 1;
    }
    if (Eat("}")) {
      p.source = std::string(src_.substr(start, pos_ - start));
      return p;
    }
    if (!p.op.empty()) {
      p.op += "+";  // ${!x[@]}-style combinations are not modelled
    } else {
      static constexpr std::string_view kOps[] = {":-", ":=", ":?", ":+", "-",  "=",  "?",  "+",
                                                  "##", "#",  "%%", "%",  "//", "/#", "/%", "/",
                                                  "^^", "^",  ",,", ",",  ":",  "@"};
      for (auto o : kOps) {
        if (Eat(o)) {
          p.op = std::string(o);
          break;
        }
      }
      if (p.op.empty()) Fail("bad substitution");
    }
    // The argument: a word that ends at the matching '}' (spaces are part of it).
    Word arg = ReadWord('}');
    p.children = std::move(arg.parts);
    if (!Eat("}")) Fail("missing '}'");
    p.source = std::string(src_.substr(start, pos_ - start));
    return p;
  }

  WordPart ReadProcessSub() {
    size_t start = pos_;
    WordPart p{Kind::kProcessSub};
    p.op = std::string(1, Peek());
    pos_ += 2;
    Parser sub(src_, pos_, depth_);
    p.script = std::make_shared<Script>(sub.ParseUntilParen());
    pos_ = sub.pos();
    p.source = std::string(src_.substr(start, pos_ - start));
    return p;
  }

  std::string_view src_;
  size_t pos_;
  int depth_;
  std::vector<std::pair<Command*, size_t>> pending_;
};

}  // namespace

std::expected<Script, ParseError> ParseScript(std::string_view source) {
  try {
    Parser p(source, 0, 0);
    return p.ParseAll();
  } catch (const Failure& f) {
    return std::unexpected(f.error);
  } catch (const std::exception& e) {
    return std::unexpected(ParseError{e.what(), true});
  }
}

}  // namespace clawtools::execpolicy
