// Static word expansion: what bash would make of a word, as far as it can be known before
// running anything.
//
// Performed, in bash's order: brace expansion ({a,b}, {1..3}, bounded), tilde (kept as "~"),
// parameter expansion of variables assigned to constants earlier in the same command
// (including ${x:-default}, ${x#pat}, ${x/a/b}, ${x@E}, ${!ref}, arrays, $IFS), command
// substitution whose output is statically known (asked of the Hooks), field splitting on $IFS,
// and quote removal. What depends on run time (an unknown $VAR, $(curl ...), $RANDOM) leaves
// the field `dynamic`, its text showing the original source in place of the unknown value.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "execpolicy/ast.h"

namespace clawtools::execpolicy {

// Where a value came from, carried through pipes, substitutions and variables.
enum Taint : unsigned {
  kTaintNone = 0,
  kTaintNetwork = 1u << 0,     // output of a download (curl, wget, nc, ...)
  kTaintDecoded = 1u << 1,     // output of a decoder fed with unknown data (base64 -d, xxd -r)
  kTaintPrompt = 1u << 2,      // ${x@P}: prompt expansion evaluates command substitutions
  kTaintSecretVar = 1u << 3,   // the value of a credential-like environment variable
  kTaintProcessSub = 1u << 4,  // a <(...) path whose content a program would read
};

struct Variable {
  bool known = false;
  std::string value;
  bool is_array = false;
  std::vector<std::string> elements;
  unsigned taint = kTaintNone;
};

// Shell variables as far as they are known at one point of the script.
class Env {
 public:
  Env();
  // nullptr: never assigned in this command (a run-time value from the environment).
  const Variable* Find(const std::string& name) const;
  void Set(const std::string& name, Variable v) { vars_[name] = std::move(v); }
  void SetString(const std::string& name, std::string value);
  void SetUnknown(const std::string& name) { vars_[name] = Variable{}; }
  // After a branch that may or may not have run: variables whose value differs become unknown.
  void MergeBranch(const Env& branch);

  // A variable the runner provides (AnalysisOptions::provided_variables): its value is not a
  // secret of the gateway's.
  bool Provided(std::string_view name) const {
    return provided && std::ranges::find(*provided, name) != provided->end();
  }
  const std::vector<std::string>* provided = nullptr;

  std::vector<std::string> positional;  // $1.. (positional[0] is $0)
  bool positional_known = false;

  // The working directory: "" is the workspace, "~" home, "/x" absolute; nullopt unknown (cd $X).
  std::optional<std::string> cwd = std::string();

 private:
  std::map<std::string, Variable> vars_;
};

struct Field {
  std::string text;
  bool dynamic = false;  // some part of it is only known at run time
  bool glob = false;     // contains unquoted *, ? or [
  unsigned taint = kTaintNone;
  const Script* process_sub = nullptr;  // the field is a <(...) path; its producer
};

struct SubstitutionResult {
  std::optional<std::string> output;  // nullopt: unknown until run time
  unsigned taint = kTaintNone;
};

// The analyzer answers these so that commands inside substitutions are analyzed once, with
// the variables known at that point.
class ExpansionHooks {
 public:
  virtual ~ExpansionHooks() = default;
  virtual SubstitutionResult CommandSubstitution(const Script& script) = 0;
  virtual unsigned ProcessSubstitution(const Script& script) = 0;

  // Bytes produced by all expansions of one analysis, bounded by kMaxExpandedBytes.
  size_t expanded_bytes = 0;
};

enum class ExpandMode {
  kWords,   // command words: brace expansion and field splitting
  kSingle,  // assignments, redirection targets, here-docs: one field, no splitting
};

// Thrown when an expansion would exceed its bounds (too many brace alternatives, too long).
struct ExpansionTooComplex {};

inline constexpr size_t kMaxBraceFields = 4096;
inline constexpr size_t kMaxExpandedBytes = 8 << 20;

std::vector<Field> ExpandWord(const Word& word, Env& env, ExpansionHooks& hooks, ExpandMode mode);
// The same, appending the fields to `out`.
void ExpandWord(const Word& word, Env& env, ExpansionHooks& hooks, ExpandMode mode,
                std::vector<Field>& out);
// The one field of a kSingle expansion of `parts` (all of a word's, or an assignment's value).
Field ExpandSingle(std::span<const WordPart> parts, Env& env, ExpansionHooks& hooks);

// True for names such as GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DATABASE_URL, CLAWTOOLS_*.
bool IsSecretVariableName(std::string_view name);

}  // namespace clawtools::execpolicy
