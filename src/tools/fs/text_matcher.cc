#include "tools/fs/text_matcher.h"

#include <re2/re2.h>

#include <cstring>

namespace clawtools {

TextMatcher::~TextMatcher() = default;

Expected<std::shared_ptr<const TextMatcher>> TextMatcher::Compile(std::string_view pattern,
                                                                  bool case_insensitive) {
  if (pattern.empty()) return Fail(ErrorCode::kInvalidArgument, "pattern is required");
  std::shared_ptr<TextMatcher> m(new TextMatcher());
  if (!case_insensitive && pattern.find_first_of("\\^$.|?*+()[]{}") == std::string_view::npos) {
    m->literal_ = std::string(pattern);
    return m;
  }
  RE2::Options o;
  o.set_case_sensitive(!case_insensitive);
  o.set_log_errors(false);
  o.set_max_mem(64 << 20);  // a bigger DFA cache keeps RE2 off its slow NFA fallback
  // (?m): ^ and $ at line boundaries, as grep users expect.
  m->re_ = std::make_unique<RE2>("(?m)" + std::string(pattern), o);
  if (!m->re_->ok())
    return Fail(ErrorCode::kInvalidArgument, "invalid regex (RE2 syntax): " + m->re_->error());
  return m;
}

bool TextMatcher::Matches(std::string_view text) const {
  if (re_)
    return re_->Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED,
                      nullptr, 0);
  return ::memmem(text.data(), text.size(), literal_.data(), literal_.size()) != nullptr;
}

std::optional<std::pair<size_t, size_t>> TextMatcher::Find(std::string_view text,
                                                           size_t pos) const {
  if (pos > text.size()) return std::nullopt;
  if (re_) {
    re2::StringPiece m;
    if (!re_->Match(re2::StringPiece(text.data(), text.size()), pos, text.size(), RE2::UNANCHORED,
                    &m, 1))
      return std::nullopt;
    size_t b = static_cast<size_t>(m.data() - text.data());
    return std::make_pair(b, b + m.size());
  }
  const void* hit =
      ::memmem(text.data() + pos, text.size() - pos, literal_.data(), literal_.size());
  if (hit == nullptr) return std::nullopt;
  size_t b = static_cast<size_t>(static_cast<const char*>(hit) - text.data());
  return std::make_pair(b, b + literal_.size());
}

}  // namespace clawtools
