#include "execpolicy/analyzer.h"

#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "execpolicy/args.h"
#include "execpolicy/data_flow.h"
#include "execpolicy/interpreter_code.h"
#include "execpolicy/parser.h"
#include "execpolicy/paths.h"
#include "execpolicy/rules.h"

namespace clawtools::execpolicy {

using namespace std::string_view_literals;
namespace {

// Programs a dynamic or globbed command name is tried as: if the arguments would be
// denied for one of them, the command is denied.
// Only programs whose verdict depends on their arguments: trying `reboot` would deny any
// dynamic command.
constexpr std::string_view kProbePrograms[] = {"rm",    "dd",     "shred",    "chmod",
                                               "chown", "find",   "mv",       "curl",
                                               "wget",  "docker", "truncate", "rsync"};
// A globbed name narrows the candidates itself, so programs denied whatever their arguments
// are tried as well.
constexpr std::string_view kGlobOnlyPrograms[] = {
    "reboot", "shutdown", "halt", "poweroff", "mkfs",    "wipefs",   "sudo",
    "su",     "doas",     "nc",   "ncat",     "crontab", "printenv", "env",
    "mount",  "kill",     "tee",  "cp",       "cat",     "xmrig",    "nmap"};

struct TooComplex {
  std::string why;
};

Field Static(std::string text) {
  return Field{std::move(text)};
}

bool OneOf(std::string_view s, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

std::string Basename(const std::string& s) {
  size_t slash = s.rfind('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

class Analyzer final : public ExpansionHooks {
 public:
  Analyzer(Findings& findings, std::vector<SimpleCommand>& commands)
      : findings_(findings), commands_(commands) {
    env_.provided = &findings.provided_variables();
  }

  void Top(std::string_view text) {
    try {
      RunText(text, Stream{}, /*via=*/"");
    } catch (const TooComplex& t) {
      findings_.Deny("analysis", "too_complex",
                     "the command is too complex to analyze (" + t.why + ")",
                     std::string(text.substr(0, 200)));
    } catch (const ExpansionTooComplex&) {
      findings_.Deny("analysis", "too_complex", "an expansion is too large to analyze",
                     std::string(text.substr(0, 200)));
    }
  }

  SubstitutionResult CommandSubstitution(const Script& script) override {
    Env saved = env_;  // $(...) runs in a subshell
    Stream out = RunScript(script, Stream{});
    env_ = std::move(saved);
    return {out.text, out.taint};
  }

  unsigned ProcessSubstitution(const Script& script) override {
    Env saved = env_;
    Stream out = RunScript(script, Stream{});
    env_ = std::move(saved);
    process_outputs_[&script] = out;
    return out.taint;
  }

 private:
  void Step() {
    if (++steps_ > kMaxSteps) throw TooComplex{"more than " + std::to_string(kMaxSteps) + " steps"};
  }

  // A nested script (sh -c, eval, su -c, watch, interpreter shell calls).
  void RunText(std::string_view text, const Stream& in, std::string_view via) {
    if (depth_ >= kMaxNesting)
      throw TooComplex{"nested more than " + std::to_string(kMaxNesting) + " levels"};
    auto script = ParseScript(text);
    if (!script) {
      if (script.error().too_complex) throw TooComplex{script.error().message};
      findings_.Deny("analysis", "parse_error",
                     "the command cannot be parsed (" + script.error().message + ")" +
                         (via.empty() ? "" : " in the script given to " + std::string(via)),
                     std::string(text.substr(0, 200)));
      return;
    }
    ++depth_;
    RunScript(*script, in);
    --depth_;
  }

  Stream RunScript(const Script& script, const Stream& in) {
    Stream out;
    out.present = true;
    out.text = std::string();
    bool conditional = false;
    for (const ListItem& item : script.items) {
      Step();
      const bool background = item.separator == "&";
      Stream o;
      if (background) {
        if (infinite_loop_ > 0) {
          findings_.Deny("fork_bomb", "spawn_loop", "an endless loop starts background jobs",
                         Render(item.pipeline) + " &");
        }
        Env saved = env_;
        ++async_;
        o = RunPipeline(item.pipeline, in);
        --async_;
        env_ = std::move(saved);
      } else if (conditional) {
        Env before = env_;
        o = RunPipeline(item.pipeline, in);
        before.MergeBranch(env_);
        env_ = std::move(before);
      } else {
        o = RunPipeline(item.pipeline, in);
      }
      conditional = item.separator == "&&" || item.separator == "||" ? true : false;
      Append(out, std::move(o));
    }
    return out;
  }

  static void Append(Stream& out, Stream&& o) {
    out.taint |= o.taint;
    if (out.text && o.text) {
      if (out.text->empty()) {
        out.text = std::move(o.text);
      } else {
        *out.text += *o.text;
      }
    } else {
      out.text.reset();
    }
    if (o.origin.empty()) return;
    if (out.origin.empty()) {
      out.origin = std::move(o.origin);
    } else {
      out.origin += "; ";
      out.origin += o.origin;
    }
  }

  Stream RunPipeline(const Pipeline& p, const Stream& in) {
    if (p.commands.size() == 1) return RunCommand(*p.commands[0], in);
    Stream cur = in;
    ++async_;
    for (const auto& c : p.commands) {
      Env saved = env_;  // every element of a pipeline runs in a subshell
      Stream next = RunCommand(*c, std::move(cur));
      env_ = std::move(saved);
      next.present = true;
      cur = std::move(next);
    }
    --async_;
    return cur;
  }

  Stream RunBody(const Script& s, const Stream& in, bool conditional) {
    if (!conditional) return RunScript(s, in);
    Env before = env_;
    Stream out = RunScript(s, in);
    before.MergeBranch(env_);
    env_ = std::move(before);
    return out;
  }

  static bool IsConstantCondition(const Script& s, std::initializer_list<std::string_view> words) {
    if (s.items.size() != 1 || s.items[0].pipeline.commands.size() != 1) return false;
    const Command& c = *s.items[0].pipeline.commands[0];
    return c.kind == Command::Kind::kSimple && c.words.size() == 1 &&
           c.words[0].parts.size() == 1 && OneOf(c.words[0].parts[0].text, words);
  }

  Stream RunCommand(const Command& c, Stream in) {
    Step();
    ApplyInputRedirects(c, in);
    const Stream& redirected = in;
    switch (c.kind) {
      case Command::Kind::kSimple:
        return RunSimple(c, std::move(in));
      case Command::Kind::kGroup:
        CheckCompoundRedirects(c);
        return RunScript(c.bodies[0], redirected);
      case Command::Kind::kSubshell: {
        CheckCompoundRedirects(c);
        Env saved = env_;
        Stream out = RunScript(c.bodies[0], redirected);
        env_ = std::move(saved);
        return out;
      }
      case Command::Kind::kFunction: {
        functions_.insert(c.text);
        function_stack_.push_back(c.text);
        Env saved = env_;
        const bool positional_known = env_.positional_known;
        env_.positional_known = false;
        RunCommand(*c.function_body, Stream{});
        env_ = std::move(saved);
        env_.positional_known = positional_known;
        function_stack_.pop_back();
        return {};
      }
      case Command::Kind::kIf: {
        CheckCompoundRedirects(c);
        Stream out;
        for (size_t i = 0; i < c.bodies.size(); ++i)
          Append(out, RunBody(c.bodies[i], redirected, i > 0));
        return out;
      }
      case Command::Kind::kLoop: {
        CheckCompoundRedirects(c);
        const bool endless = c.text == "while" ? IsConstantCondition(c.bodies[0], {"true", ":"})
                                               : IsConstantCondition(c.bodies[0], {"false"});
        Stream out = RunBody(c.bodies[0], redirected, false);
        infinite_loop_ += endless;
        Append(out, RunBody(c.bodies[1], redirected, true));
        infinite_loop_ -= endless;
        return out;
      }
      case Command::Kind::kFor:
        CheckCompoundRedirects(c);
        return RunFor(c, redirected);
      case Command::Kind::kCase: {
        CheckCompoundRedirects(c);
        for (const Word& w : c.words) ExpandWord(w, env_, *this, ExpandMode::kSingle);
        Stream out;
        for (const Script& arm : c.bodies) Append(out, RunBody(arm, redirected, true));
        return out;
      }
      case Command::Kind::kArith:
      case Command::Kind::kCond:
        for (const Word& w : c.words) ExpandWord(w, env_, *this, ExpandMode::kSingle);
        CheckCompoundRedirects(c);
        return {};
    }
    return {};
  }

  Stream RunFor(const Command& c, const Stream& in) {
    if (c.text.empty()) {  // for (( ; ; )): endless when the condition is empty
      for (const Word& w : c.words) ExpandWord(w, env_, *this, ExpandMode::kSingle);
      const std::string expr = c.words.empty() ? "" : c.words[0].source;
      size_t first = expr.find(';');
      const bool endless = first != std::string::npos &&
                           expr.find_first_not_of(" ", first + 1) == expr.find(';', first + 1);
      infinite_loop_ += endless;
      Stream out = RunBody(c.bodies[0], in, true);
      infinite_loop_ -= endless;
      return out;
    }
    std::vector<Field> values;
    for (const Word& w : c.words) {
      auto f = ExpandWord(w, env_, *this, ExpandMode::kWords);
      values.insert(values.end(), f.begin(), f.end());
    }
    const bool known = c.for_has_in && values.size() <= 64 &&
                       std::none_of(values.begin(), values.end(),
                                    [](const Field& f) { return f.dynamic || f.glob; });
    Stream out;
    if (!known || values.empty()) {
      Env before = env_;
      env_.SetUnknown(c.text);
      Append(out, RunScript(c.bodies[0], in));
      before.MergeBranch(env_);
      env_ = std::move(before);
      return out;
    }
    Env before = env_;
    Env merged = env_;
    for (const Field& v : values) {
      env_ = before;
      env_.SetString(c.text, v.text);
      Append(out, RunScript(c.bodies[0], in));
      merged.MergeBranch(env_);
    }
    env_ = std::move(merged);
    return out;
  }

  // Redirections on compound commands ({ ...; } > /dev/sda) are checked on their own.
  void CheckCompoundRedirects(const Command& c) {
    if (c.redirects.empty()) return;
    Invocation inv;
    inv.redirects = ExpandRedirects(c);
    ApplyRules(inv, findings_);
  }

  std::vector<RedirectInfo> ExpandRedirects(const Command& c) {
    std::vector<RedirectInfo> out;
    for (const Redirect& r : c.redirects) {
      if (r.op == "<<" || r.op == "<<-") continue;
      out.push_back({r.op, r.fd, ExpandSingle(r.target.parts, env_, *this)});
    }
    return out;
  }

  // Here-docs, here-strings and < files become the command's stdin `s`.
  void ApplyInputRedirects(const Command& c, Stream& s) {
    for (const Redirect& r : c.redirects) {
      if (r.fd > 0) continue;
      if (r.op == "<<<" || r.op == "<<" || r.op == "<<-") {
        const Word& w = r.op == "<<<" ? r.target : r.heredoc;
        Field v = ExpandSingle(w.parts, env_, *this);
        s = Stream{true, std::nullopt, v.taint,
                   r.op == "<<<" ? "<<< " + QuoteField(v) : "here-document"};
        if (!v.dynamic) s.text = r.op == "<<<" ? v.text + "\n" : v.text;
      } else if (r.op == "<") {
        Field v = ExpandSingle(r.target.parts, env_, *this);
        s = Stream{true, std::nullopt, v.taint & ~kTaintProcessSub, "< " + QuoteField(v)};
        if (v.process_sub) {
          auto it = process_outputs_.find(v.process_sub);
          if (it != process_outputs_.end()) {
            s.text = it->second.text;
            s.origin = it->second.origin;
          }
        }
      }
    }
  }

  Stream RunSimple(const Command& c, Stream in) {
    std::vector<std::pair<std::string, Field>> assigns;
    for (const Word& a : c.assignments) {
      std::string name = a.parts[0].text;
      name.pop_back();  // '='
      const bool append = !name.empty() && name.back() == '+';
      if (append) name.pop_back();
      if (name.find('[') != std::string::npos) {
        // X[i]=v: the array becomes unknown rather than modelled element by element.
        name = name.substr(0, name.find('['));
        Word rest = a;
        rest.parts.erase(rest.parts.begin());
        ExpandWord(rest, env_, *this, ExpandMode::kSingle);
        assigns.emplace_back(name, Field{"", true});
        continue;
      }
      if (a.is_array) {
        Variable v{true};
        v.is_array = true;
        for (const Word& e : a.elements) {
          for (Field& f : ExpandWord(e, env_, *this, ExpandMode::kWords)) {
            v.known = v.known && !f.dynamic;
            v.taint |= f.taint;
            v.elements.push_back(std::move(f.text));
          }
        }
        if (c.words.empty()) env_.Set(name, v);
        assigns.emplace_back(name, Field{a.source, !v.known, false, v.taint});
        continue;
      }
      Field v = ExpandSingle(std::span(a.parts).subspan(1), env_, *this);  // after NAME=

      if (append) {
        const Variable* old = env_.Find(name);
        if (!old || !old->known) v.dynamic = true;
        v.text = (old ? old->value : "") + v.text;
      }
      assigns.emplace_back(name, v);
      if (c.words.empty()) {
        Variable var{!v.dynamic, v.text};
        var.taint = v.taint;
        env_.Set(name, std::move(var));
      }
    }
    Invocation inv;
    inv.argv.reserve(c.words.size());
    for (const Word& w : c.words) ExpandWord(w, env_, *this, ExpandMode::kWords, inv.argv);
    inv.env = std::move(assigns);
    inv.redirects = ExpandRedirects(c);
    inv.in = std::move(in);
    return Run(std::move(inv));
  }

  void Record(const Invocation& inv) {
    SimpleCommand sc;
    sc.argv.reserve(inv.argv.size());
    for (const Field& f : inv.argv) {
      sc.argv.push_back(f.text);
      sc.dynamic = sc.dynamic || f.dynamic;
    }
    commands_.push_back(std::move(sc));
  }

  Stream Run(Invocation inv) {
    Step();
    if (inv.argv.empty()) {
      ApplyRules(inv, findings_);
      return {};
    }
    Record(inv);
    const Field& name = inv.argv[0];
    if (name.dynamic) return DynamicCommand(inv);
    if (name.glob) return GlobCommand(inv);
    const std::string_view prog = inv.Program();
    if (!function_stack_.empty() &&
        std::find(function_stack_.begin(), function_stack_.end(), prog) != function_stack_.end() &&
        async_ > 0) {
      findings_.Deny(
          "fork_bomb", "recursive_function",
          "the function " + std::string(prog) + " calls itself in a pipe or in the background",
          std::string(prog));
    }
    if (!downloaded_.empty() && downloaded_.contains(NormalizePath(name.text))) {
      findings_.Deny("remote_exec", "download_execute",
                     "a file downloaded by this command is executed", inv.Canonical());
    }
    if (!written_.empty()) RunWrittenScript(inv, 0);
    Unwrap(inv);
    if (prog == "cd" || prog == "pushd") ChangeDirectory(inv);
    if (env_.cwd && env_.cwd->empty()) {
      ApplyRules(inv, findings_);
    } else {
      ApplyRules(Resolved(inv), findings_);
    }
    const bool downloader = IsDownloader(prog);
    if (downloader) TrackDownloads(inv);
    if (std::any_of(inv.argv.begin(), inv.argv.end(), [](const Field& f) { return f.dynamic; })) {
      Stream out;
      out.present = true;
      out.taint = inv.in.taint | (downloader ? unsigned{kTaintNetwork} : 0u);
      for (const Field& f : inv.argv) out.taint |= f.taint & (kTaintNetwork | kTaintDecoded);
      out.origin = inv.Canonical();
      return out;
    }
    Stream out = EvaluateOutput(inv);
    TrackWrites(inv, out);
    return out;
  }

  // `cd DIR`: later relative paths are judged from there.
  void ChangeDirectory(const Invocation& inv) {
    size_t i = 1;
    while (i < inv.argv.size() && inv.Word(i).starts_with("-") && inv.Word(i) != "-") ++i;
    if (i >= inv.argv.size()) {
      env_.cwd = "~";
      return;
    }
    const Field& dir = inv.argv[i];
    if (dir.dynamic || dir.glob || dir.text == "-" || !env_.cwd) {
      env_.cwd.reset();
      return;
    }
    const bool rooted = dir.text.starts_with("/") || dir.text.starts_with("~");
    const std::string joined = rooted || env_.cwd->empty() ? dir.text : *env_.cwd + "/" + dir.text;
    const std::string n = NormalizePath(joined);
    env_.cwd = n == "." ? std::string() : n;
  }

  // The invocation as the rules must see it once the directory changed: relative operands
  // prefixed with it ("$PWD/" when it is unknown).
  Invocation Resolved(const Invocation& inv) const {
    Invocation r = inv;
    auto resolve = [&](Field& f) {
      const std::string& t = f.text;
      if (t.empty() || t.starts_with("-") || t.starts_with("/") || t.starts_with("~") ||
          t.starts_with("$") || t.find("://") != std::string::npos ||
          t.find('=') != std::string::npos) {
        return;
      }
      if (env_.cwd) {
        f.text = *env_.cwd + "/" + t;
      } else {
        f.text = "$PWD/" + t;
        f.dynamic = true;
      }
    };
    for (size_t i = 1; i < r.argv.size(); ++i) resolve(r.argv[i]);
    for (auto& red : r.redirects) {
      if (!red.target.text.empty() && !std::isdigit(static_cast<unsigned char>(red.target.text[0])))
        resolve(red.target);
    }
    return r;
  }

  // Scripts this command writes with known content (`echo 'rm -rf /' > x.sh`), so that running
  // them later is analyzed.
  void TrackWrites(const Invocation& inv, const Stream& out) {
    for (const RedirectInfo& r : inv.redirects) {
      if (!r.IsWrite() || (r.fd != -1 && r.fd != 1) || r.target.dynamic) continue;
      const std::string path = NormalizePath(r.target.text);
      if (!out.text) {
        written_.erase(path);
        continue;
      }
      std::string& content = written_[path];
      content = r.op == ">>" ? content + *out.text : *out.text;
    }
  }

  // `./x.sh`, `bash x.sh`, `. x.sh` where x.sh was written above: run its content.
  void RunWrittenScript(const Invocation& inv, size_t index) {
    if (index >= inv.argv.size()) return;
    auto it = written_.find(NormalizePath(inv.Word(index)));
    if (it == written_.end()) return;
    if (index == 0 && !inv.Word(0).contains('/')) return;  // `x` is looked up in PATH, not here
    const std::string content = it->second;
    Env saved = env_;
    RunText(content, Stream{}, inv.Word(index));
    env_ = std::move(saved);
  }

  Stream DynamicCommand(const Invocation& inv) {
    const Field& name = inv.argv[0];
    Stream out{true, std::nullopt, inv.in.taint | name.taint, inv.Canonical()};
    if (name.taint & kTaintNetwork) {
      findings_.Deny("remote_exec", "substituted_command",
                     "the command to run is downloaded at run time", inv.Canonical());
      return out;
    }
    if (name.taint & kTaintDecoded) {
      findings_.Deny("eval_injection", "decoded_command",
                     "the command to run is decoded at run time", inv.Canonical());
      return out;
    }
    if (!Probe(inv, "a command name only known at run time")) {
      findings_.Ask("analysis", "dynamic_command",
                    "the command name is only known at run time (" + name.text + ")",
                    inv.Canonical());
    }
    return out;
  }

  Stream GlobCommand(const Invocation& inv) {
    if (!Probe(inv, "a command name pattern", Basename(inv.argv[0].text))) {
      findings_.Ask("analysis", "glob_command", "the command name is a file name pattern",
                    inv.Canonical());
    }
    return {true, std::nullopt, inv.in.taint, inv.Canonical()};
  }

  // Tries the arguments of a dynamic or globbed command under the names of dangerous
  // programs (those matching `pattern` when given); denies if any of them would be denied.
  bool Probe(const Invocation& inv, std::string_view what, const std::string& pattern = {}) {
    if (inv.argv.size() < 2 && pattern.empty()) return false;
    std::vector<std::string_view> candidates(std::begin(kProbePrograms), std::end(kProbePrograms));
    if (!pattern.empty())
      candidates.insert(candidates.end(), std::begin(kGlobOnlyPrograms),
                        std::end(kGlobOnlyPrograms));
    for (auto candidate : candidates) {
      const std::string name(candidate);
      if (!pattern.empty() && fnmatch(pattern.c_str(), name.c_str(), 0) != 0) continue;
      Invocation probe = inv;
      probe.argv[0] = Static(name);
      Findings trial = findings_;
      const bool was_denied = trial.denied();
      ApplyRules(probe, trial);
      if (!was_denied && trial.denied()) {
        findings_.Deny(pattern.empty() ? "eval_injection" : "analysis",
                       pattern.empty() ? "dynamic_command" : "glob_command",
                       std::string(what) + " that can be " + name + ", and " + name +
                           " with these arguments is denied (" + trial.decisive()->rule + ")",
                       inv.Canonical());
        return true;
      }
    }
    return false;
  }

  // Re-enters the analysis for whatever `inv` makes run: wrappers, shells, eval, interpreters.
  void Unwrap(const Invocation& inv) {
    const std::string_view prog = inv.Program();
    auto rest_from = [&](size_t start) {
      if (start >= inv.argv.size()) return;
      Invocation inner;
      inner.argv.assign(inv.argv.begin() + start, inv.argv.end());
      inner.env = inv.env;
      inner.in = inv.in;
      inner.redirects = inv.redirects;
      Run(std::move(inner));
    };
    auto posix = [&](ArgSpec spec) {
      spec.posix_order = true;
      return ParseArgs(inv.argv, 1, spec);
    };
    // What each wrapper runs: one lookup instead of comparing the name with every wrapper.
    enum class Runs {
      kArgs,
      kCommand,
      kExec,
      kTime,
      kNice,
      kSetsid,
      kStdbuf,
      kIonice,
      kTrace,
      kSandbox,
      kTimeout,
      kSudo,
      kEnv,
      kSu,
      kFlock,
      kScript,
      kWatch,
      kEval,
      kXargs,
      kFind,
      kSource,
      kAlias
    };
    static const std::unordered_map<std::string_view, Runs> kWrappers = {
        {"nohup", Runs::kArgs},
        {"builtin", Runs::kArgs},
        {"unbuffer", Runs::kArgs},
        {"catchsegv", Runs::kArgs},
        {"proxychains", Runs::kArgs},
        {"proxychains4", Runs::kArgs},
        {"torsocks", Runs::kArgs},
        {"tsocks", Runs::kArgs},
        {"busybox", Runs::kArgs},
        {"toybox", Runs::kArgs},
        {"sg", Runs::kArgs},
        {"command", Runs::kCommand},
        {"exec", Runs::kExec},
        {"time", Runs::kTime},
        {"nice", Runs::kNice},
        {"setsid", Runs::kSetsid},
        {"stdbuf", Runs::kStdbuf},
        {"ionice", Runs::kIonice},
        {"strace", Runs::kTrace},
        {"ltrace", Runs::kTrace},
        {"nsenter", Runs::kSandbox},
        {"unshare", Runs::kSandbox},
        {"systemd-run", Runs::kSandbox},
        {"firejail", Runs::kSandbox},
        {"bwrap", Runs::kSandbox},
        {"cgexec", Runs::kSandbox},
        {"timeout", Runs::kTimeout},
        {"chroot", Runs::kTimeout},
        {"taskset", Runs::kTimeout},
        {"chrt", Runs::kTimeout},
        {"sudo", Runs::kSudo},
        {"doas", Runs::kSudo},
        {"pkexec", Runs::kSudo},
        {"run0", Runs::kSudo},
        {"env", Runs::kEnv},
        {"su", Runs::kSu},
        {"runuser", Runs::kSu},
        {"flock", Runs::kFlock},
        {"script", Runs::kScript},
        {"watch", Runs::kWatch},
        {"eval", Runs::kEval},
        {"xargs", Runs::kXargs},
        {"find", Runs::kFind},
        {"source", Runs::kSource},
        {".", Runs::kSource},
        {"alias", Runs::kAlias}};
    const auto wrapper = kWrappers.find(prog);
    if (wrapper == kWrappers.end()) {
      if (IsShell(prog)) return UnwrapShell(inv);
      Language lang;
      if (InterpreterLanguage(prog, &lang)) return UnwrapInterpreter(inv, lang);
      return;
    }
    switch (wrapper->second) {
      case Runs::kArgs:
        return rest_from(prog == "sg" ? 2 : 1);
      case Runs::kCommand: {
        auto a = posix({});
        if (!a.Has('v') && !a.Has('V')) rest_from(a.end);
        return;
      }
      case Runs::kExec:
        return rest_from(posix({"a"}).end);
      case Runs::kTime:
        return rest_from(posix({"fo"}).end);
      case Runs::kNice:
        return rest_from(posix({"n", {{"adjustment", 'n', true}}}).end);
      case Runs::kSetsid:
        return rest_from(posix({}).end);
      case Runs::kStdbuf:
        return rest_from(
            posix({"ioe", {{"input", 'i', true}, {"output", 'o', true}, {"error", 'e', true}}})
                .end);
      case Runs::kIonice: {
        auto a = posix({"cnpPu"});
        if (!a.Has('p') && !a.Has('P') && !a.Has('u')) rest_from(a.end);
        return;
      }
      case Runs::kTrace:
        return rest_from(posix({"abeEoOpPsSuIX"}).end);
      case Runs::kSandbox:
        return rest_from(posix({"tSGwWgu"}).end);
      case Runs::kTimeout: {
        auto a = posix({"skg",
                        {{"signal", 's', true},
                         {"kill-after", 'k', true},
                         {"userspec", 0, true},
                         {"groups", 0, true}}});
        if (prog == "taskset" && a.Has('p')) return;
        return rest_from(a.end + 1);  // after the duration, new root, mask or priority
      }
      case Runs::kSudo: {
        auto a = posix(
            {"ugCDhprtTUR", {{"user", 'u', true}, {"group", 'g', true}, {"chdir", 'D', true}}});
        size_t i = a.end;
        Invocation inner;
        while (i < inv.argv.size() && IsAssignment(inv.Word(i))) {
          inner.env.emplace_back(inv.Word(i).substr(0, inv.Word(i).find('=')),
                                 Static(inv.Word(i).substr(inv.Word(i).find('=') + 1)));
          ++i;
        }
        if (i >= inv.argv.size()) return;
        inner.argv.assign(inv.argv.begin() + i, inv.argv.end());
        inner.in = inv.in;
        inner.redirects = inv.redirects;
        Run(std::move(inner));
        return;
      }
      case Runs::kEnv:
        return UnwrapEnv(inv);
      case Runs::kSu: {
        auto a = ParseArgs(inv.argv, 1,
                           {"cgGsuw",
                            {{"command", 'c', true},
                             {"shell", 's', true},
                             {"session-command", 'c', true},
                             {"user", 'u', true},
                             {"login", 'l'},
                             {"group", 'g', true}}});
        if (auto cmd = OptionValue(inv, "--command")) {
          RunNested(*cmd, inv.in, "su -c", false);
        } else if (a.Has('u') && !a.operands.empty()) {
          rest_from(a.operands[0]);
        }
        return;
      }
      case Runs::kFlock: {
        auto a = posix({"wEc", {{"command", 'c', true}, {"timeout", 'w', true}}});
        if (auto cmd = OptionValue(inv, "--command"))
          return RunNested(*cmd, inv.in, "flock -c", false);
        return rest_from(a.end + 1);
      }
      case Runs::kScript:
        if (auto cmd = OptionValue(inv, "--command")) RunNested(*cmd, inv.in, "script -c", false);
        return;
      case Runs::kWatch: {
        auto a = posix({"nqd", {{"interval", 'n', true}, {"exec", 'x'}}});
        if (a.end >= inv.argv.size()) return;
        if (a.Has('x')) return rest_from(a.end);
        return RunNested(Join(inv, a.end), inv.in, "watch", false);
      }
      case Runs::kEval:
        if (inv.argv.size() > 1) RunNested(Join(inv, 1), inv.in, "eval", /*is_eval=*/true);
        return;
      case Runs::kXargs:
        return UnwrapXargs(inv);
      case Runs::kFind:
        return UnwrapFind(inv);
      case Runs::kSource:
        if (inv.argv.size() > 1) RunScriptFile(inv, 1, prog);
        return;
      case Runs::kAlias:
        for (size_t i = 1; i < inv.argv.size(); ++i) {
          const std::string& w = inv.Word(i);
          if (size_t eq = w.find('='); eq != std::string::npos) {
            Field body = inv.argv[i];
            body.text = w.substr(eq + 1);
            RunNested(body, Stream{}, "alias", false);
          }
        }
    }
  }

  static bool IsAssignment(const std::string& w) {
    size_t eq = w.find('=');
    if (eq == std::string::npos || eq == 0) return false;
    return std::all_of(w.begin(), w.begin() + eq, [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
  }

  // The value of -c / --command=..., kept as a field so that dynamic and taint survive.
  static std::optional<Field> OptionValue(const Invocation& inv, std::string_view long_name) {
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      if (w == "--") return std::nullopt;
      if (!long_name.empty() && w.starts_with(std::string(long_name) + "=")) {
        Field f = inv.argv[i];
        f.text = w.substr(long_name.size() + 1);
        return f;
      }
      const bool cluster_ends_in_c = w.size() > 1 && w[0] == '-' && w[1] != '-' && w.back() == 'c';
      if ((cluster_ends_in_c || w == long_name) && i + 1 < inv.argv.size()) return inv.argv[i + 1];
    }
    return std::nullopt;
  }

  static Field Join(const Invocation& inv, size_t from) {
    Field out;
    for (size_t i = from; i < inv.argv.size(); ++i) {
      if (i > from) out.text += ' ';
      out.text += inv.Word(i);
      out.dynamic = out.dynamic || inv.argv[i].dynamic;
      out.taint |= inv.argv[i].taint;
    }
    return out;
  }

  void UnwrapEnv(const Invocation& inv) {
    Invocation inner;
    inner.in = inv.in;
    inner.redirects = inv.redirects;
    inner.env = inv.env;
    size_t i = 1;
    for (; i < inv.argv.size(); ++i) {
      const std::string& a = inv.Word(i);
      if (a == "--" || a == "-") {
        ++i;
        break;
      }
      if (a == "-S" || a.starts_with("--split-string")) {
        // env -S "cmd args": env splits the string itself; treat it as a script.
        std::string s = a.starts_with("--split-string=")
                            ? a.substr(15)
                            : (i + 1 < inv.argv.size() ? inv.Word(++i) : "");
        Field f = Join(inv, i + 1);
        f.text = s + (f.text.empty() ? "" : " " + f.text);
        RunNested(f, inv.in, "env -S", false);
        return;
      }
      if (a.starts_with("-S")) {
        Field f = Join(inv, i + 1);
        f.text = a.substr(2) + (f.text.empty() ? "" : " " + f.text);
        RunNested(f, inv.in, "env -S", false);
        return;
      }
      if (a == "-u" || a == "-C" || a == "--unset" || a == "--chdir") {
        ++i;
        continue;
      }
      if (a.starts_with("-")) continue;
      break;
    }
    for (; i < inv.argv.size() && IsAssignment(inv.Word(i)); ++i) {
      const std::string& a = inv.Word(i);
      Field v = inv.argv[i];
      v.text = a.substr(a.find('=') + 1);
      inner.env.emplace_back(a.substr(0, a.find('=')), v);
    }
    if (i >= inv.argv.size()) return;
    inner.argv.assign(inv.argv.begin() + i, inv.argv.end());
    Run(std::move(inner));
  }

  void UnwrapXargs(const Invocation& inv) {
    auto a = ParseArgs(inv.argv, 1,
                       {"adEILnPsl",
                        {{"replace", 'I', true},
                         {"max-args", 'n', true},
                         {"max-procs", 'P', true},
                         {"delimiter", 'd', true},
                         {"arg-file", 'a', true},
                         {"null", '0'}},
                        true});
    std::vector<Field> items;
    if (inv.in.text && !a.Has('a')) {
      std::string_view t = *inv.in.text;
      // -I and -L take whole lines; -0 NUL-separated items; otherwise blank-separated words.
      const char delim = a.Has('0') ? '\0' : (a.Has('I') || a.Has('i') || a.Has('L')) ? '\n' : 0;
      std::string cur;
      for (char ch : t) {
        if (delim || a.Has('0') ? ch == delim : std::isspace(static_cast<unsigned char>(ch))) {
          if (!cur.empty()) items.push_back(Static(cur));
          cur.clear();
        } else {
          cur += ch;
        }
      }
      if (!cur.empty()) items.push_back(Static(cur));
    } else {
      items.push_back(Field{"{xargs-input}", true, false, inv.in.taint});
    }
    if (items.size() > 256) items.resize(256);
    Invocation inner;
    inner.env = inv.env;
    if (a.end < inv.argv.size()) {
      inner.argv.assign(inv.argv.begin() + a.end, inv.argv.end());
    } else {
      inner.argv.push_back(Static("echo"));
    }
    auto repl = a.Value('I');
    if (!repl && a.Has('i')) repl = "{}";
    if (repl && !repl->empty()) {
      for (const Field& item : items) {
        Invocation one = inner;
        for (Field& f : one.argv) {
          for (size_t at; (at = f.text.find(*repl)) != std::string::npos;) {
            f.text.replace(at, repl->size(), item.text);
            f.dynamic = f.dynamic || item.dynamic;
            f.taint |= item.taint;
          }
        }
        Run(std::move(one));
      }
      return;
    }
    inner.argv.insert(inner.argv.end(), items.begin(), items.end());
    Run(std::move(inner));
  }

  void UnwrapFind(const Invocation& inv) {
    std::vector<Field> starts;
    size_t i = 1;
    for (; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      if (w.starts_with("-") || w == "(" || w == "!") break;
      starts.push_back(inv.argv[i]);
    }
    if (starts.empty()) starts.push_back(Static("."));
    for (; i < inv.argv.size(); ++i) {
      const std::string& w = inv.Word(i);
      if (w != "-exec" && w != "-execdir" && w != "-ok" && w != "-okdir") continue;
      size_t end = i + 1;
      while (end < inv.argv.size() && inv.Word(end) != ";" && inv.Word(end) != "+") ++end;
      for (const Field& start : starts) {
        Invocation inner;
        for (size_t k = i + 1; k < end; ++k) {
          Field f = inv.argv[k];
          if (size_t at = f.text.find("{}"); at != std::string::npos) {
            f.text.replace(at, 2, start.text);
            f.dynamic = f.dynamic || start.dynamic;
            f.glob = f.glob || start.glob;
          }
          inner.argv.push_back(std::move(f));
        }
        if (!inner.argv.empty()) Run(std::move(inner));
      }
      i = end;
    }
  }

  // sh/bash/zsh/...: -c STRING, a script file, or a script read from stdin.
  void UnwrapShell(const Invocation& inv) {
    bool c_flag = false, s_flag = false;
    size_t i = 1;
    for (; i < inv.argv.size(); ++i) {
      const std::string& a = inv.Word(i);
      if (a == "--" || a == "-") {
        ++i;
        break;
      }
      if (a.starts_with("--")) {
        if (a == "--rcfile" || a == "--init-file") ++i;
        continue;
      }
      if ((a[0] == '-' || a[0] == '+') && a.size() > 1) {
        for (char ch : a.substr(1)) {
          c_flag = c_flag || ch == 'c';
          s_flag = s_flag || ch == 's';
          if (ch == 'o' || ch == 'O') ++i;
        }
        continue;
      }
      break;
    }
    if (c_flag) {
      if (i >= inv.argv.size()) return;
      Env saved = env_;
      env_.positional.clear();
      env_.positional_known = true;
      for (size_t k = i + 1; k < inv.argv.size(); ++k) {
        if (inv.argv[k].dynamic) env_.positional_known = false;
        env_.positional.push_back(inv.Word(k));
      }
      if (env_.positional.empty()) env_.positional.push_back(inv.Program());
      RunNested(inv.argv[i], inv.in, inv.Program() + " -c", false);
      env_ = std::move(saved);
      return;
    }
    if (i < inv.argv.size() && !s_flag) return RunScriptFile(inv, i, inv.Program());
    ConsumeScript(inv.in, std::nullopt, inv.Canonical());
  }

  // `bash FILE`, `. FILE`, `source <(curl ...)`.
  void RunScriptFile(const Invocation& inv, size_t index, std::string_view runner) {
    const Field& file = inv.argv[index];
    if (file.process_sub) {
      auto it = process_outputs_.find(file.process_sub);
      Stream s = it != process_outputs_.end() ? it->second : Stream{};
      s.present = true;
      s.taint |= file.taint & ~kTaintProcessSub;
      ConsumeScript(s, std::nullopt, inv.Canonical());
      return;
    }
    if (file.text == "/dev/stdin" || file.text == "/proc/self/fd/0" || file.text == "/dev/fd/0") {
      ConsumeScript(inv.in, std::nullopt, inv.Canonical());
      return;
    }
    if (!written_.empty()) RunWrittenScript(inv, index);
    if (downloaded_.contains(NormalizePath(file.text))) {
      findings_.Deny("remote_exec", "download_execute",
                     std::string(runner) + " runs a file this command downloaded", inv.Canonical());
    }
    if (file.dynamic && (file.taint & (kTaintNetwork | kTaintDecoded))) {
      findings_.Deny("remote_exec", "substituted_script",
                     "the script to run is downloaded at run time", inv.Canonical());
    }
  }

  // A shell (lang nullopt) or interpreter reading its program from a stream.
  void ConsumeScript(const Stream& s, std::optional<Language> lang, const std::string& consumer) {
    if (!s.present) return;
    const std::string matched = s.origin.empty() ? consumer : s.origin + " | " + consumer;
    if (s.text) {
      if (lang) {
        ScanCode(*lang, Static(*s.text), matched);
      } else {
        RunText(*s.text, Stream{}, consumer);
      }
      return;
    }
    if (s.taint & kTaintNetwork) {
      findings_.Deny(
          "remote_exec", "pipe_to_shell",
          "downloaded content is executed by " + Basename(consumer.substr(0, consumer.find(' '))),
          matched);
    } else if (s.taint & kTaintDecoded) {
      findings_.Deny("eval_injection", "decode_to_shell", "decoded data is executed as a program",
                     matched);
    } else {
      findings_.Ask("eval_injection", "stdin_script",
                    "a program read from stdin is executed, and its content is not known", matched);
    }
  }

  void RunNested(const Field& script, const Stream& in, std::string_view via, bool is_eval) {
    if (script.dynamic) {
      if (script.taint & kTaintNetwork) {
        findings_.Deny("remote_exec", "substituted_script",
                       std::string(via) + " runs downloaded text",
                       std::string(via) + " " + QuoteField(script));
      } else if (script.taint & (kTaintDecoded | kTaintPrompt)) {
        findings_.Deny("eval_injection", "decoded_script", std::string(via) + " runs decoded text",
                       std::string(via) + " " + QuoteField(script));
      } else if (is_eval) {
        findings_.Deny("eval_injection", "eval_dynamic",
                       "eval runs text that is only known at run time", "eval " + script.text);
      } else {
        findings_.Ask("eval_injection", "dynamic_script",
                      std::string(via) + " runs a script that is only known at run time",
                      std::string(via) + " " + QuoteField(script));
      }
      // The visible part still counts: `sh -c "rm -rf / $X"`.
      auto parsed = ParseScript(script.text);
      if (!parsed) return;
      if (depth_ >= kMaxNesting) throw TooComplex{"nested too deeply"};
      ++depth_;
      RunScript(*parsed, in);
      --depth_;
      return;
    }
    if (is_eval) {
      RunText(script.text, in, via);  // eval runs in the current shell: assignments persist
    } else {
      Env saved = env_;
      RunText(script.text, in, via);
      env_ = std::move(saved);
    }
  }

  void UnwrapInterpreter(const Invocation& inv, Language lang) {
    std::optional<Field> code;
    size_t script = 0;
    const std::string_view prog = inv.Program();
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      const std::string& a = inv.Word(i);
      if (a == "--") {
        script = i + 1;
        break;
      }
      if (lang == Language::kAwk) {
        if (a == "-f") return;  // program from a file
        if (a == "-v" || a == "-F") {
          ++i;
          continue;
        }
        if (a.starts_with("-")) continue;
        code = inv.argv[i];
        break;
      }
      if (a.size() < 2 || a[0] != '-') {
        script = i;
        break;
      }
      if (a == "-m" && lang == Language::kPython) {
        // python -m pip install ...: the module's arguments are checked by the rules.
        return;
      }
      // The option that carries code: -c (python), -e/-E (perl, ruby, node, lua), -r (php),
      // --eval/-p/--print (node); clustered forms (-ne, -lne, -Bc) and attached code (-c'...').
      static constexpr std::string_view kValueOpts = "WXIMmrCFdxiA";
      for (size_t k = 1; k < a.size() && a[1] != '-'; ++k) {
        char ch = a[k];
        const bool code_opt = (lang == Language::kPython && ch == 'c') ||
                              ((lang == Language::kPerl || lang == Language::kRuby ||
                                lang == Language::kLua || lang == Language::kNode) &&
                               (ch == 'e' || ch == 'E')) ||
                              (lang == Language::kNode && ch == 'p') ||
                              (lang == Language::kPhp && ch == 'r');
        if (code_opt) {
          std::string attached = a.substr(k + 1);
          Field f = attached.empty() && i + 1 < inv.argv.size() ? inv.argv[++i] : inv.argv[i];
          if (!attached.empty()) f.text = attached;
          code = code ? Field{code->text + "\n" + f.text, code->dynamic || f.dynamic, false,
                              code->taint | f.taint}
                      : f;
          break;
        }
        if (kValueOpts.find(ch) != std::string_view::npos &&
            !(lang == Language::kRuby && ch == 'r')) {
          if (k + 1 == a.size() && i + 1 < inv.argv.size() && lang == Language::kPython) ++i;
          break;
        }
        if (lang == Language::kRuby && ch == 'r') {
          std::string lib = a.substr(k + 1);
          if (lib.empty() && i + 1 < inv.argv.size()) lib = inv.Word(++i);
          if (lib == "socket") code = Field{(code ? code->text : "") + "\nrequire 'socket'"};
          break;
        }
      }
      if (a == "--eval" || a == "--print" || a.starts_with("--eval=")) {
        Field f = a.starts_with("--eval=") ? Field{a.substr(7)}
                                           : (i + 1 < inv.argv.size() ? inv.argv[++i] : Field{});
        code = f;
      }
    }
    if (code) return ScanCode(lang, *code, inv.Canonical());
    if (script && script < inv.argv.size() && inv.Word(script) != "-") {
      return RunScriptFile(inv, script, prog);
    }
    ConsumeScript(inv.in, lang, inv.Canonical());
  }

  void ScanCode(Language lang, const Field& code, const std::string& matched) {
    if (code.dynamic) {
      if (code.taint & kTaintNetwork) {
        findings_.Deny("remote_exec", "substituted_code", "the interpreter runs downloaded code",
                       matched);
      } else if (code.taint & kTaintDecoded) {
        findings_.Deny("eval_injection", "decoded_code", "the interpreter runs decoded code",
                       matched);
      } else {
        findings_.Ask("eval_injection", "dynamic_code",
                      "the interpreter runs code that is only known at run time", matched);
      }
    }
    CodeScan scan = ScanInlineCode(lang, code.text);
    for (const auto& f : scan.findings)
      findings_.Add(f.decision, f.group, f.rule, f.reason, matched);
    for (const auto& cmd : scan.shell_commands) {
      Env saved = env_;
      RunText(cmd, Stream{}, "the interpreter's shell call");
      env_ = std::move(saved);
    }
    for (const auto& argv : scan.argv_commands) {
      Invocation inner;
      for (const auto& a : argv) inner.argv.push_back(Static(a));
      if (!inner.argv.empty()) Run(std::move(inner));
    }
  }

  // Files a download writes, so that running them later is caught.
  void TrackDownloads(const Invocation& inv) {
    const std::string_view prog = inv.Program();
    std::vector<std::string> urls;
    for (size_t i = 1; i < inv.argv.size(); ++i) {
      if (inv.Word(i).find("://") != std::string::npos) urls.push_back(inv.Word(i));
    }
    auto add = [&](const std::string& f) {
      if (!f.empty() && f != "-") downloaded_.insert(NormalizePath(f));
    };
    auto url_basename = [](std::string u) {
      u = u.substr(0, u.find_first_of("?#"));
      return Basename(u);
    };
    if (prog == "curl") {
      auto a =
          ParseArgs(inv.argv, 1,
                    {"oHdXAeFuTwxmrKzEbcDUQtYyz", {{"output", 'o', true}, {"remote-name", 'O'}}});
      if (auto o = a.Value('o')) add(*o);
      if (a.Has('O')) {
        for (const auto& u : urls) add(url_basename(u));
      }
    } else if (prog == "wget") {
      auto a = ParseArgs(inv.argv, 1, {"OoaePUtTwQ", {{"output-document", 'O', true}}});
      if (auto o = a.Value('O')) {
        add(*o);
      } else {
        for (const auto& u : urls) add(url_basename(u));
      }
    }
    for (const auto& r : inv.redirects) {
      if (r.IsWrite() && (r.fd == -1 || r.fd == 1)) add(r.target.text);
    }
  }

  std::string Render(const Pipeline& p) {
    std::string s;
    for (const auto& c : p.commands) {
      if (!s.empty()) s += " | ";
      s += c->kind == Command::Kind::kSimple && !c->words.empty() ? c->words[0].source : "...";
    }
    return s;
  }

  Findings& findings_;
  std::vector<SimpleCommand>& commands_;
  Env env_;
  int depth_ = 0;
  long steps_ = 0;
  int async_ = 0;
  int infinite_loop_ = 0;
  std::set<std::string> functions_;
  std::vector<std::string> function_stack_;
  std::set<std::string> downloaded_;
  std::map<std::string, std::string> written_;
  std::map<const Script*, Stream> process_outputs_;
};

}  // namespace

void AnalyzeScript(std::string_view command, Findings& findings,
                   std::vector<SimpleCommand>& commands) {
  Analyzer(findings, commands).Top(command);
}

}  // namespace clawtools::execpolicy
