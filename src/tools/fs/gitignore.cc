#include "tools/fs/gitignore.h"

#include "tools/fs/glob_pattern.h"

namespace clawtools {

GitignoreFile GitignoreFile::Parse(std::string_view text) {
  GitignoreFile f;
  size_t i = 0;
  while (i < text.size()) {
    size_t nl = text.find('\n', i);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(i, nl - i);
    i = nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // Trailing spaces are dropped unless escaped.
    while (!line.empty() && line.back() == ' ' &&
           !(line.size() >= 2 && line[line.size() - 2] == '\\'))
      line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    Rule r;
    if (line.front() == '!') {
      r.negate = true;
      line.remove_prefix(1);
    } else if (line.starts_with("\\!") || line.starts_with("\\#")) {
      line.remove_prefix(1);
    }
    if (!line.empty() && line.back() == '/') {
      r.dir_only = true;
      line.remove_suffix(1);
    }
    if (line.empty()) continue;
    r.anchored = line.find('/') != std::string_view::npos;
    if (line.front() == '/') line.remove_prefix(1);
    r.pattern = std::string(line);
    f.rules_.push_back(std::move(r));
  }
  return f;
}

std::optional<bool> GitignoreFile::Match(std::string_view rel, bool is_dir) const {
  size_t slash = rel.rfind('/');
  std::string_view base = slash == std::string_view::npos ? rel : rel.substr(slash + 1);
  for (auto it = rules_.rbegin(); it != rules_.rend(); ++it) {
    if (it->dir_only && !is_dir) continue;
    if (GlobMatch(it->pattern, it->anchored ? rel : base)) return !it->negate;
  }
  return std::nullopt;
}

std::shared_ptr<const IgnoreStack> IgnoreStack::Push(std::shared_ptr<const IgnoreStack> parent,
                                                     std::string base, GitignoreFile file) {
  auto s = std::make_shared<IgnoreStack>();
  s->parent_ = std::move(parent);
  s->base_ = std::move(base);
  s->file_ = std::move(file);
  return s;
}

bool IgnoreStack::Ignored(const IgnoreStack* stack, std::string_view rel, bool is_dir) {
  for (const IgnoreStack* s = stack; s != nullptr; s = s->parent_.get()) {
    std::string_view sub = rel;
    if (!s->base_.empty()) {
      if (!rel.starts_with(s->base_) || rel.size() <= s->base_.size() ||
          rel[s->base_.size()] != '/')
        continue;
      sub = rel.substr(s->base_.size() + 1);
    }
    if (auto m = s->file_.Match(sub, is_dir)) return *m;
  }
  return false;
}

}  // namespace clawtools
