#include "execpolicy/interpreter_code.h"

#include <array>
#include <cctype>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "execpolicy/expander.h"
#include "execpolicy/paths.h"

namespace clawtools::execpolicy {

using namespace std::string_view_literals;
namespace {

bool Contains(std::string_view code, std::string_view s) {
  return code.find(s) != std::string_view::npos;
}

bool ContainsAny(std::string_view code, std::initializer_list<std::string_view> list) {
  for (auto s : list) {
    if (Contains(code, s)) return true;
  }
  return false;
}

// A string literal at `pos` ('..', "..", `..`): its value, and where it ends.
std::optional<std::string> Literal(std::string_view code, size_t& pos) {
  while (pos < code.size() && std::isspace(static_cast<unsigned char>(code[pos]))) ++pos;
  // Python prefixes r"", b"", f"" (f-strings may interpolate: not literal).
  if (pos + 1 < code.size() && (code[pos] == 'r' || code[pos] == 'b') &&
      (code[pos + 1] == '"' || code[pos + 1] == '\'')) {
    ++pos;
  }
  if (pos >= code.size()) return std::nullopt;
  const char q = code[pos];
  if (q != '"' && q != '\'' && q != '`') return std::nullopt;
  std::string out;
  for (size_t i = pos + 1; i < code.size(); ++i) {
    char c = code[i];
    if (c == '\\' && i + 1 < code.size()) {
      char n = code[++i];
      out += n == 'n' ? '\n' : n == 't' ? '\t' : n;
      continue;
    }
    if (c == q) {
      pos = i + 1;
      // "..." + "..." and "..." . "..." concatenations of literals.
      size_t j = pos;
      while (j < code.size() && std::isspace(static_cast<unsigned char>(code[j]))) ++j;
      if (j < code.size() && (code[j] == '+' || code[j] == '.')) {
        size_t k = j + 1;
        if (auto more = Literal(code, k)) {
          pos = k;
          return out + *more;
        }
      }
      return out;
    }
    if ((c == '$' || c == '#') && i + 1 < code.size() && code[i + 1] == '{' && q != '\'') {
      return std::nullopt;  // interpolation: computed at run time
    }
    out += c;
  }
  return std::nullopt;
}

// [ "a", 'b' ] or ( "a", "b" ): a list of literals.
std::optional<std::vector<std::string>> LiteralList(std::string_view code, size_t pos) {
  while (pos < code.size() && std::isspace(static_cast<unsigned char>(code[pos]))) ++pos;
  if (pos >= code.size() || (code[pos] != '[' && code[pos] != '(')) return std::nullopt;
  const char close = code[pos] == '[' ? ']' : ')';
  ++pos;
  std::vector<std::string> out;
  for (;;) {
    auto s = Literal(code, pos);
    if (!s) return std::nullopt;
    out.push_back(*s);
    while (pos < code.size() && std::isspace(static_cast<unsigned char>(code[pos]))) ++pos;
    if (pos < code.size() && code[pos] == ',') {
      ++pos;
      continue;
    }
    if (pos < code.size() && code[pos] == close) return out;
    return std::nullopt;
  }
}

struct ShellCall {
  std::string_view name;   // text that starts the call, up to and including '(' or ' '
  bool argv_list = false;  // may take a list of arguments (executed without a shell)
};

std::span<const ShellCall> ShellCalls(Language lang) {
  static constexpr ShellCall kPython[] = {{"os.system("},
                                          {"os.popen("},
                                          {"system("},
                                          {"popen("},
                                          {"getoutput("},
                                          {"getstatusoutput("},
                                          {"subprocess.call(", true},
                                          {"subprocess.run(", true},
                                          {"subprocess.Popen(", true},
                                          {"check_output(", true},
                                          {"check_call(", true},
                                          {"os.execv", true},
                                          {"os.execl", true},
                                          {"os.spawn", true},
                                          {"pty.spawn(", true},
                                          {"run(", true},
                                          {"Popen(", true},
                                          {"call(", true}};
  static constexpr ShellCall kPerl[] = {{"system(", true}, {"system ", true}, {"exec(", true},
                                        {"exec ", true},   {"qx(", false},    {"qx{"},
                                        {"open("}};
  static constexpr ShellCall kRuby[] = {{"system(", true},
                                        {"system ", true},
                                        {"exec(", true},
                                        {"exec ", true},
                                        {"%x("},
                                        {"IO.popen(", true},
                                        {"spawn(", true},
                                        {"Open3.capture2(", true},
                                        {"Open3.popen3(", true}};
  static constexpr ShellCall kNode[] = {{"execSync("},           {"exec("},
                                        {"spawnSync(", true},    {"spawn(", true},
                                        {"execFileSync(", true}, {"execFile(", true}};
  static constexpr ShellCall kPhp[] = {{"system("},   {"exec("},  {"shell_exec("},
                                       {"passthru("}, {"popen("}, {"proc_open("}};
  static constexpr ShellCall kLua[] = {{"os.execute("}, {"io.popen("}};
  static constexpr ShellCall kAwk[] = {{"system("}};
  switch (lang) {
    case Language::kPython:
      return kPython;
    case Language::kPerl:
      return kPerl;
    case Language::kRuby:
      return kRuby;
    case Language::kNode:
      return kNode;
    case Language::kPhp:
      return kPhp;
    case Language::kLua:
      return kLua;
    case Language::kAwk:
      return kAwk;
  }
  return {};
}

// What one pass over the code finds, as bits: which groups of needles occur anywhere in it.
// Bits from kFirstCall on stand for the shell calls of each language (CallBits).
enum : uint64_t {
  kSocket = 1u << 0,
  kShell = 1u << 1,
  kInet = 1u << 2,
  kSocketUse = 1u << 3,
  kDownload = 1u << 4,
  kExec = 1u << 5,
  kDecode = 1u << 6,
  kDecodedExec = 1u << 7,
  kFork = 1u << 8,
  kLoop = 1u << 9,
  kDelete = 1u << 10,
};
constexpr int kFirstCall = 11;

constexpr std::string_view kDeleteCalls[] = {"rmtree(", "os.remove(",    "os.unlink(",  "os.rmdir(",
                                             "rmSync(", "rmdirSync(",    "unlinkSync(", "rm_rf(",
                                             "rm_r(",   "remove_tree(",  "unlink(",     "rmdir(",
                                             "fs.rm(",  "os.removedirs("};

// Needles bucketed by their first byte: a position where no needle starts costs one lookup,
// where the many finds it replaces each scanned the whole code.
class NeedleScan {
 public:
  void Add(std::string_view needle, uint64_t bits) {
    auto& bucket = by_first_[static_cast<unsigned char>(needle[0])];
    for (auto& [n, b] : bucket) {
      if (n == needle) {
        b |= bits;
        return;
      }
    }
    bucket.emplace_back(needle, bits);
  }
  void Add(std::initializer_list<std::string_view> needles, uint64_t bits) {
    for (std::string_view n : needles) Add(n, bits);
  }

  uint64_t Scan(std::string_view text) const {
    uint64_t found = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      for (const auto& [needle, bits] : by_first_[static_cast<unsigned char>(text[i])]) {
        if ((found & bits) != bits && At(text, i, needle)) found |= bits;
      }
    }
    return found;
  }

 private:
  // The first byte is known to match; a loop usually stops at the second, where a memcmp call
  // would cost more than the whole comparison.
  static bool At(std::string_view text, size_t i, std::string_view needle) {
    if (needle.size() > text.size() - i) return false;
    for (size_t k = 1; k < needle.size(); ++k) {
      if (text[i + k] != needle[k]) return false;
    }
    return true;
  }

  std::array<std::vector<std::pair<std::string_view, uint64_t>>, 256> by_first_;
};

constexpr Language kLanguages[] = {Language::kPython, Language::kPerl, Language::kRuby,
                                   Language::kNode,   Language::kPhp,  Language::kLua,
                                   Language::kAwk};

// The bit of a language's first shell call; the others follow in ShellCalls order.
int FirstCallBit(Language lang) {
  static const auto first = [] {
    std::array<int, std::size(kLanguages)> bits{};
    int next = kFirstCall;
    for (Language l : kLanguages) {
      bits[static_cast<int>(l)] = next;
      next += static_cast<int>(ShellCalls(l).size());
    }
    // Thrown out of AnalyzeCommand, which then denies (fail closed).
    if (next > 64) throw std::length_error("more needles than a scan's bits");
    return bits;
  }();
  return first[static_cast<int>(lang)];
}

const NeedleScan& Needles() {
  static const NeedleScan scan = [] {
    NeedleScan n;
    n.Add({"socket"sv, "Socket"sv, "fsockopen"sv, "net.connect"sv, "net.Socket"sv,
           "createConnection"sv, "/inet/tcp"sv, "/inet/udp"sv, "TCPSocket"sv},
          kSocket);
    n.Add({"/bin/sh"sv, "/bin/bash"sv, "sh -i"sv, "bash -i"sv, "dup2"sv, "pty.spawn"sv,
           "subprocess"sv, "child_process"sv, "exec("sv, "spawn("sv, "system("sv, "proc_open"sv,
           "STDIN"sv, "popen"sv, "cmd.exe"sv, "|&"sv},
          kShell);
    n.Add({"/inet/tcp"sv, "/inet/udp"sv}, kInet);
    n.Add({"connect"sv, "bind"sv, "listen"sv}, kSocketUse);
    n.Add({"urlopen"sv, "urllib"sv, "requests.get"sv, "http.client"sv, "fetch("sv, "https.get"sv,
           "http.get"sv, "LWP"sv, "open-uri"sv, "Net::HTTP"sv, "file_get_contents(\"http"sv,
           "file_get_contents('http"sv, "curl_exec"sv, "URI.open"sv},
          kDownload);
    n.Add({"exec("sv, "eval("sv, "system("sv, "execSync("sv, "Function("sv, "`"sv}, kExec);
    n.Add({"b64decode"sv, "base64"sv, "decode("sv, "fromhex"sv, "unhexlify"sv, "zlib"sv,
           "marshal"sv, "pickle.loads"sv, "from_base64"sv, "Buffer.from("sv, "atob("sv, "unpack("sv,
           "str_rot13"sv, "gzinflate"sv, "chr("sv, "fromCharCode"sv, "[::-1]"sv, "reverse"sv},
          kDecode);
    n.Add({"exec("sv, "eval("sv, "compile("sv, "Function("sv, "assert("sv}, kDecodedExec);
    n.Add("fork"sv, kFork);
    n.Add({"while"sv, "loop"sv, "for "sv, "for("sv, "until"sv}, kLoop);
    for (std::string_view call : kDeleteCalls) n.Add(call, kDelete);
    for (Language lang : kLanguages) {
      int bit = FirstCallBit(lang);
      for (const ShellCall& call : ShellCalls(lang)) n.Add(call.name, uint64_t{1} << bit++);
    }
    return n;
  }();
  return scan;
}

bool EnvNameOk(std::string_view name) {
  return !IsSecretVariableName(name);
}

// Reads of the environment: whole-environment dumps are findings; single non-secret names
// (os.getenv("HOME"), process.env.PATH) are fine.
void ScanEnv(Language lang, std::string_view code, CodeScan& out) {
  auto deny = [&](std::string reason) {
    out.findings.push_back(
        {Decision::kDeny, "env_dump", "interpreter_environment", std::move(reason)});
  };
  auto name_after = [&](size_t pos, std::string_view open) -> std::optional<std::string> {
    if (code.substr(pos, open.size()) != open) return std::nullopt;
    size_t p = pos + open.size();
    return Literal(code, p);
  };
  auto scan = [&](std::string_view token, std::initializer_list<std::string_view> accessors,
                  bool dot_member) {
    for (size_t at = code.find(token); at != std::string_view::npos;
         at = code.find(token, at + 1)) {
      size_t after = at + token.size();
      bool single = false;
      for (auto acc : accessors) {
        if (auto name = name_after(after, acc)) {
          if (!EnvNameOk(*name)) return deny("the code reads the secret variable " + *name);
          single = true;
        }
      }
      if (dot_member && after < code.size() && code[after] == '.') {
        size_t e = after + 1;
        while (e < code.size() &&
               (std::isalnum(static_cast<unsigned char>(code[e])) || code[e] == '_'))
          ++e;
        std::string_view member = code.substr(after + 1, e - after - 1);
        if (!member.empty() && std::isupper(static_cast<unsigned char>(member[0]))) {
          if (!EnvNameOk(member))
            return deny("the code reads the secret variable " + std::string(member));
          single = true;
        }
      }
      if (!single) return deny("the code reads the whole environment (" + std::string(token) + ")");
    }
  };
  switch (lang) {
    case Language::kPython:
      scan("environ", {"[", ".get(", "["}, false);
      scan("getenv(", {""}, false);
      break;
    case Language::kNode:
      scan("process.env", {"["}, true);
      break;
    case Language::kPerl:
      if (Contains(code, "%ENV")) deny("the code reads the whole environment (%ENV)");
      scan("$ENV{", {""}, false);
      break;
    case Language::kRuby:
      scan("ENV", {"[", ".fetch("}, false);
      break;
    case Language::kPhp:
      if (ContainsAny(code, {"$_ENV"sv, "$_SERVER"sv, "getenv()"sv}))
        deny("the code reads the whole environment");
      scan("getenv(", {""}, false);
      break;
    case Language::kAwk:
      scan("ENVIRON", {"["}, false);
      break;
    case Language::kLua:
      scan("os.getenv(", {""}, false);
      break;
  }
}

void ScanDeletes(Language lang, std::string_view code, CodeScan& out) {
  (void)lang;
  for (auto call : kDeleteCalls) {
    for (size_t at = code.find(call); at != std::string_view::npos; at = code.find(call, at + 1)) {
      size_t p = at + call.size();
      auto path = Literal(code, p);
      if (!path) {
        out.findings.push_back({Decision::kAsk, "destructive_fs", "interpreter_delete",
                                "the code deletes a computed path (" + std::string(call) + "...)"});
        continue;
      }
      Field f{*path};
      if (IsCriticalPath(f)) {
        out.findings.push_back({Decision::kDeny, "destructive_fs", "interpreter_delete",
                                "the code deletes the protected path " + *path});
      }
    }
  }
}

// `found`: Needles().Scan(code).
void ScanNetworkAndLoops(Language lang, uint64_t found, CodeScan& out) {
  const bool socket = found & kSocket;
  const bool shell = found & kShell;
  if (lang == Language::kAwk && (found & kInet)) {
    out.findings.push_back({Decision::kDeny, "reverse_shell", "interpreter_socket_shell",
                            "awk opens a network connection (/inet/)"});
  } else if (socket && shell) {
    out.findings.push_back({Decision::kDeny, "reverse_shell", "interpreter_socket_shell",
                            "the code connects a socket and starts a shell or process"});
  } else if (socket && (found & kSocketUse)) {
    out.findings.push_back({Decision::kAsk, "reverse_shell", "interpreter_socket",
                            "the code opens a raw network socket"});
  }
  if ((found & kDownload) && (found & kExec)) {
    out.findings.push_back({Decision::kDeny, "remote_exec", "interpreter_download_exec",
                            "the code downloads content and executes it"});
  }
  if ((found & kDecode) && (found & kDecodedExec)) {
    out.findings.push_back({Decision::kDeny, "eval_injection", "interpreter_decoded_exec",
                            "the code decodes or assembles a string and executes it"});
  }
  if ((found & kFork) && (found & kLoop)) {
    out.findings.push_back(
        {Decision::kDeny, "fork_bomb", "interpreter_fork_loop", "the code forks in a loop"});
  }
}

}  // namespace

bool InterpreterLanguage(std::string_view p, Language* lang) {
  auto family = [&](std::string_view base) {
    if (!p.starts_with(base)) return false;
    std::string_view rest = p.substr(base.size());
    return rest.find_first_not_of("0123456789.") == std::string_view::npos;
  };
  if (family("python") || family("pypy") || p == "ipython")
    *lang = Language::kPython;
  else if (family("perl"))
    *lang = Language::kPerl;
  else if (family("ruby") || p == "jruby" || p == "irb")
    *lang = Language::kRuby;
  else if (p == "node" || p == "nodejs" || p == "bun" || p == "deno")
    *lang = Language::kNode;
  else if (family("php"))
    *lang = Language::kPhp;
  else if (family("lua") || p == "luajit")
    *lang = Language::kLua;
  else if (p == "awk" || p == "gawk" || p == "mawk" || p == "nawk" || p == "busybox-awk")
    *lang = Language::kAwk;
  else
    return false;
  return true;
}

CodeScan ScanInlineCode(Language lang, std::string_view code) {
  CodeScan out;
  const uint64_t found = Needles().Scan(code);
  int call_bit = FirstCallBit(lang);
  for (const ShellCall& call : ShellCalls(lang)) {
    if (!(found & uint64_t{1} << call_bit++)) continue;  // does not occur
    for (size_t at = code.find(call.name); at != std::string_view::npos;
         at = code.find(call.name, at + 1)) {
      // "run(" must not match "xrun(" or "os.system(": require a non-identifier before it.
      if (at > 0 &&
          (std::isalnum(static_cast<unsigned char>(code[at - 1])) || code[at - 1] == '_')) {
        continue;
      }
      size_t p = at + call.name.size();
      if (call.name.back() != '(' && call.name.back() != ' ' && call.name.back() != '{') {
        while (p < code.size() && code[p] != '(') ++p;  // os.execvp( / os.spawnlp(
        ++p;
      }
      if (call.name == "open(") {  // perl open(FH, "cmd |") and open(FH, "|-", ...)
        size_t comma = code.find(',', p);
        if (comma == std::string_view::npos) continue;
        size_t q = comma + 1;
        auto target = Literal(code, q);
        if (!target || (target->find('|') == std::string::npos)) continue;
        std::string cmd = *target;
        std::erase(cmd, '|');
        out.shell_commands.push_back(cmd);
        continue;
      }
      size_t lit_pos = p;
      if (auto lit = Literal(code, lit_pos)) {
        while (lit_pos < code.size() && std::isspace(static_cast<unsigned char>(code[lit_pos])))
          ++lit_pos;
        if (call.argv_list && lit_pos < code.size() && code[lit_pos] == ',') {
          // system("rm", "-rf", "/"): an argument vector.
          std::vector<std::string> argv{*lit};
          while (lit_pos < code.size() && code[lit_pos] == ',') {
            ++lit_pos;
            auto next = Literal(code, lit_pos);
            if (!next) break;
            argv.push_back(*next);
            while (lit_pos < code.size() && std::isspace(static_cast<unsigned char>(code[lit_pos])))
              ++lit_pos;
          }
          out.argv_commands.push_back(std::move(argv));
        } else {
          out.shell_commands.push_back(*lit);
        }
        continue;
      }
      if (call.argv_list) {
        if (auto list = LiteralList(code, p)) {
          out.argv_commands.push_back(*list);
          continue;
        }
      }
      const bool obfuscated =
          ContainsAny(code, {"chr("sv, "fromCharCode"sv, "b64decode"sv, "decode("sv, "fromhex"sv,
                             "[::-1]"sv, "pack("sv, "reverse"sv, "base64"sv});
      out.findings.push_back(
          {obfuscated ? Decision::kDeny : Decision::kAsk, "eval_injection",
           obfuscated ? "interpreter_obfuscated_exec" : "interpreter_dynamic_exec",
           obfuscated ? "the code runs a command it decodes or assembles at run time"
                      : "the code runs a command computed at run time"});
    }
  }
  // Backticks run shell commands in perl, ruby and php.
  if (lang == Language::kPerl || lang == Language::kRuby || lang == Language::kPhp) {
    for (size_t at = code.find('`'); at != std::string_view::npos;) {
      size_t end = code.find('`', at + 1);
      if (end == std::string_view::npos) break;
      out.shell_commands.emplace_back(code.substr(at + 1, end - at - 1));
      at = code.find('`', end + 1);
    }
  }
  if (lang == Language::kAwk) {  // print ... | "cmd" and "cmd" | getline
    for (size_t at = code.find('|'); at != std::string_view::npos; at = code.find('|', at + 1)) {
      size_t p = at + 1;
      if (auto cmd = Literal(code, p)) out.shell_commands.push_back(*cmd);
      size_t q = code.rfind('"', at);
      if (q != std::string_view::npos && q > 0 && code.substr(at).starts_with("| getline")) {
        size_t open = code.rfind('"', q - 1);
        if (open != std::string_view::npos)
          out.shell_commands.emplace_back(code.substr(open + 1, q - open - 1));
      }
    }
  }
  ScanEnv(lang, code, out);
  if (found & kDelete) ScanDeletes(lang, code, out);
  ScanNetworkAndLoops(lang, found, out);
  for (size_t at = 0; at < code.size();) {  // literal paths: secrets and /proc/*/environ
    char q = code[at];
    if (q != '"' && q != '\'') {
      ++at;
      continue;
    }
    size_t p = at;
    auto lit = Literal(code, p);
    if (!lit) {
      ++at;
      continue;
    }
    Field f{*lit};
    if (MentionsSecretPath(f)) {
      out.findings.push_back({Decision::kDeny, "secret_read", "interpreter_credential_file",
                              "the code opens the credential file " + *lit});
    } else if (MentionsProcEnviron(f)) {
      out.findings.push_back({Decision::kDeny, "env_dump", "proc_environ",
                              "the code reads a process environment (" + *lit + ")"});
    }
    at = p;
  }
  return out;
}

}  // namespace clawtools::execpolicy
