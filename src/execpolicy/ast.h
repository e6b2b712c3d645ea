// The shell syntax tree the parser builds and the analyzer walks.
//
// Words keep their structure (which parts were quoted, which are expansions) because bash
// decides field splitting, globbing and brace expansion from that structure, after parsing.
// Substitutions hold their own parsed Script so that the commands inside them are analyzed too.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace clawtools::execpolicy {

struct Script;

struct WordPart {
  enum class Kind {
    kLiteral,       // unquoted text (escapes already removed); glob characters stay active
    kQuoted,        // text from '..', $'..' or an escaped character: never split or globbed
    kDoubleQuoted,  // "..": `children` hold its parts
    kParam,         // $NAME, ${...}: `text` is the name, `op`/`children` the operator and argument
    kCommandSub,    // $(..) or `..`
    kProcessSub,    // <(..) or >(..): `op` is "<" or ">"
    kArith,         // $((..)): `text` is the expression, substitutions inside in `children`
  };
  Kind kind = Kind::kLiteral;
  std::string text;
  std::string op;  // parameter operator (":-", "#", "/", "@P", ...); "" for plain $NAME
  std::vector<WordPart> children;
  std::shared_ptr<Script> script;  // for substitutions
  std::string source;              // the original text, for display
};

struct Word {
  std::vector<WordPart> parts;
  std::string source;          // original text of the whole word
  bool is_array = false;       // NAME=( elements ): the assignment of an indexed array
  std::vector<Word> elements;  // the array's element words
};

struct Redirect {
  int fd = -1;     // explicit fd number, -1 when absent
  std::string op;  // ">", ">>", ">|", "<", "<>", ">&", "<&", "&>", "&>>", "<<", "<<-", "<<<"
  Word target;     // file, fd, here-string word or here-doc delimiter
  Word heredoc;    // the here-doc body: one quoted part when the delimiter was quoted
};

struct Command;
using CommandPtr = std::shared_ptr<Command>;

struct Pipeline {
  std::vector<CommandPtr> commands;
  bool negated = false;
};

// One element of a list: a pipeline and the operator that follows it.
struct ListItem {
  Pipeline pipeline;
  std::string separator;  // ";", "&", "&&", "||", "\n" or "" at the end
};

struct Script {
  std::vector<ListItem> items;
};

// Every member needs an initializer: the parser allocates Commands without zeroing them first
// (make_shared_for_overwrite).
struct Command {
  enum class Kind {
    kSimple,
    kSubshell,  // ( list )
    kGroup,     // { list; }
    kFunction,  // name () body
    kIf,        // bodies: cond, then, [elif-cond, elif-then]..., [else]
    kLoop,      // while/until: bodies = cond, body; `text` is "while" or "until"
    kFor,       // for NAME in words; bodies = body; `text` is NAME; arithmetic for has no words
    kCase,      // case word in pattern) body;; ...: words[0] the subject, bodies the arms
    kArith,     // (( expr )): words[0] holds the expression as a double-quoted word
    kCond,      // [[ ... ]]: words are the operands
  };
  Kind kind = Kind::kSimple;
  std::vector<Word> assignments;  // NAME=value words before a simple command
  std::vector<Word> words;
  std::vector<Redirect> redirects;
  std::vector<Script> bodies;
  std::string text;         // function name, loop keyword, for variable
  bool for_has_in = false;  // `for x in ...` rather than iterating over "$@"
  CommandPtr function_body;
};

}  // namespace clawtools::execpolicy
