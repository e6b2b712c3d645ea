#include "custom_tools/command_template.h"

namespace clawtools::custom_tools {
namespace {

bool NameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '-';
}

size_t SkipSpaces(std::string_view s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}

}  // namespace

Expected<CommandTemplate> CommandTemplate::Parse(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return Fail(ErrorCode::kInvalidArgument, "command must not be empty");
  if (text.find('\0') != std::string_view::npos)
    return Fail(ErrorCode::kInvalidArgument, "command must not contain a NUL byte");
  CommandTemplate t;
  std::string literal;
  size_t i = 0;
  while (i < text.size()) {
    if (text.substr(i, 2) != "{{") {
      literal.push_back(text[i++]);
      continue;
    }
    const size_t start = i;
    size_t j = SkipSpaces(text, i + 2);
    size_t name_begin = j + 1;
    size_t k = name_begin;
    while (k < text.size() && NameChar(text[k])) ++k;
    size_t end = SkipSpaces(text, k);
    if (j >= text.size() || text[j] != '.' || k == name_begin || text.substr(end, 2) != "}}") {
      return Fail(ErrorCode::kInvalidArgument,
                  "command: malformed placeholder at offset " + std::to_string(start) +
                      " (expected {{.name}} with name of letters, digits, _ or -)");
    }
    if (!literal.empty()) t.pieces_.push_back({false, std::move(literal)});
    literal.clear();
    t.pieces_.push_back({true, std::string(text.substr(name_begin, k - name_begin))});
    i = end + 2;
  }
  if (!literal.empty()) t.pieces_.push_back({false, std::move(literal)});
  return t;
}

std::set<std::string> CommandTemplate::Placeholders() const {
  std::set<std::string> out;
  for (const Piece& p : pieces_)
    if (p.placeholder) out.insert(p.text);
  return out;
}

Expected<std::string> CommandTemplate::Render(const Json& args) const {
  std::string out;
  for (const Piece& p : pieces_) {
    if (!p.placeholder) {
      out += p.text;
      continue;
    }
    auto it = args.is_object() ? args.find(p.text) : args.end();
    if (it == args.end() || it->is_null()) continue;
    std::string value = it->is_string() ? it->get<std::string>()
                                        : it->dump(-1, ' ', false, Json::error_handler_t::replace);
    if (value.find('\0') != std::string::npos)
      return Fail(ErrorCode::kInvalidArgument,
                  "argument '" + p.text + "' contains a NUL byte, which a command cannot receive");
    out += ShellQuote(value);
  }
  return out;
}

std::string ShellQuote(std::string_view value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'')
      out += "'\\''";
    else
      out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

}  // namespace clawtools::custom_tools
