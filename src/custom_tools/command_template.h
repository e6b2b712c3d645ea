// A custom tool's command template: shell text with `{{.name}}` placeholders (spaces allowed
// inside the braces: `{{ .name }}`), each replaced by one shell-quoted argument value.
//
// Parsed once, when the tool is defined, into literal and placeholder pieces; rendering is a
// single pass over those pieces, so a value that itself contains `{{.other}}` stays literal
// text inside its quotes (GoClaw substituted repeatedly, in random order, and could be made to
// close its own quotes). A `{{` that does not start a well-formed placeholder is an error at
// parse time rather than text that silently never gets substituted.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/json.h"

namespace clawtools::custom_tools {

class CommandTemplate {
 public:
  // kInvalidArgument (with the offset) for an empty template, a malformed placeholder or a
  // NUL byte.
  static Expected<CommandTemplate> Parse(std::string_view text);

  // The placeholder names, sorted and unique.
  std::set<std::string> Placeholders() const;

  // Renders with the argument values in `args` (an object). A string value is quoted as is;
  // any other value as its JSON text (`3`, `true`, `["a",1]`). A placeholder whose argument
  // is absent (an optional parameter) renders as nothing. kInvalidArgument when a value would
  // carry a NUL byte, which neither argv nor sh can pass.
  Expected<std::string> Render(const Json& args) const;

 private:
  struct Piece {
    bool placeholder = false;
    std::string text;  // literal text, or the placeholder's name
  };
  std::vector<Piece> pieces_;
};

// 'value' with every ' written as '\'' : one shell word whose content is `value`, byte for
// byte, whatever it holds (`$()`, backticks, newlines, invalid UTF-8). `value` must not hold
// NUL.
std::string ShellQuote(std::string_view value);

}  // namespace clawtools::custom_tools
