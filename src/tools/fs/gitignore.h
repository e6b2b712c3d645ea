// .gitignore rules, with git's semantics: '#' comments, '!' negation (last matching rule
// wins), a trailing '/' matches folders only, a pattern with a '/' elsewhere is anchored to the
// folder of its .gitignore, otherwise it matches the base name at any depth; '**' per
// glob_pattern.h. Deeper .gitignore files override shallower ones. As in git, a file inside an
// ignored folder cannot be re-included (the walk never enters the folder).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawtools {

class GitignoreFile {
 public:
  static GitignoreFile Parse(std::string_view text);

  bool empty() const { return rules_.empty(); }
  // `rel`: path relative to this file's folder. nullopt when no rule matches; otherwise true
  // for ignored, false for re-included by a negation.
  std::optional<bool> Match(std::string_view rel, bool is_dir) const;

 private:
  struct Rule {
    std::string pattern;
    bool negate = false;
    bool dir_only = false;
    bool anchored = false;
  };
  std::vector<Rule> rules_;
};

// The chain of .gitignore files that apply in one folder, innermost first. Immutable; shared
// by the walk's threads.
class IgnoreStack {
 public:
  // `base`: root-relative folder of `file` ("" for the root).
  static std::shared_ptr<const IgnoreStack> Push(std::shared_ptr<const IgnoreStack> parent,
                                                 std::string base, GitignoreFile file);

  // `rel`: root-relative path of the entry.
  static bool Ignored(const IgnoreStack* stack, std::string_view rel, bool is_dir);

 private:
  std::shared_ptr<const IgnoreStack> parent_;
  std::string base_;
  GitignoreFile file_;
};

}  // namespace clawtools
