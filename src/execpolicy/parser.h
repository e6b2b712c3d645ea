// A hand-written parser for the bash command language, enough to find every command a
// string would run: lists, pipelines, simple commands with assignments and redirections,
// subshells, groups, functions, if/while/until/for/case, (( )), [[ ]], here-docs and
// here-strings, and every kind of quoting, expansion and substitution inside words.
//
// It is strict where bash is strict (unbalanced quotes, a stray ")" or "fi" are errors) so
// that the analyzer can fail closed; it never executes or expands anything.
#pragma once

#include <expected>
#include <string>
#include <string_view>

#include "execpolicy/ast.h"

namespace clawtools::execpolicy {

struct ParseError {
  std::string message;       // e.g. "unterminated single quote"
  bool too_complex = false;  // nesting beyond kMaxParseDepth rather than a syntax error
};

// Nesting of substitutions, quotes and compound commands beyond this is refused: real commands
// stay far below it, and the limit bounds recursion on hostile input.
inline constexpr int kMaxParseDepth = 200;

std::expected<Script, ParseError> ParseScript(std::string_view source);

// The escapes of a $'...' string (\n, \xHH, \NNN octal, \uHHHH, \cX, ...), as bash decodes them.
std::string DecodeAnsiC(std::string_view escaped);

}  // namespace clawtools::execpolicy
