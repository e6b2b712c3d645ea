#include "tools/fs/edit_file.h"

#include <algorithm>
#include <cctype>

#include "tools/fs/args.h"
#include "tools/fs/text.h"

namespace clawtools {
namespace {

Json Schema() {
  return Json::parse(R"({
    "type": "object",
    "properties": {
      "path": {"type": "string", "description": "File to edit: relative to the workspace, or an absolute path inside it."},
      "old_string": {"type": "string", "description": "Exact text to replace, including whitespace and indentation, without read_file's line-number prefixes. Must occur exactly once unless replace_all is true."},
      "new_string": {"type": "string", "description": "Replacement text (must differ from old_string)."},
      "replace_all": {"type": "boolean", "description": "Replace every occurrence instead of requiring a unique match (default false)."}
    },
    "required": ["path", "old_string", "new_string"]
  })");
}

std::vector<size_t> FindAll(std::string_view hay, std::string_view needle) {
  std::vector<size_t> at;
  for (size_t pos = hay.find(needle); pos != std::string_view::npos;
       pos = hay.find(needle, pos + needle.size()))
    at.push_back(pos);
  return at;
}

size_t LineOf(std::string_view s, size_t pos) {
  return 1 + static_cast<size_t>(std::count(s.begin(), s.begin() + static_cast<long>(pos), '\n'));
}

// Collapses runs of whitespace, to tell the model when only whitespace differs.
std::string Squash(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

struct Edited {
  std::string text;
  size_t count;
};

Expected<Edited> Apply(std::string_view data, std::string_view display, std::string_view old_s,
                       std::string_view new_s, bool replace_all) {
  std::vector<size_t> at = FindAll(data, old_s);
  if (at.empty()) {
    std::string msg = "old_string not found in " + std::string(display) + ".";
    std::string sq = Squash(old_s);
    if (!sq.empty() && Squash(data).find(sq) != std::string::npos)
      msg +=
          " A match exists when whitespace is ignored: copy the exact indentation and line "
          "breaks from read_file output (without the line-number prefix).";
    else
      msg += " Read the file again to get its current text.";
    return Fail(ErrorCode::kNotFound, msg);
  }
  if (at.size() > 1 && !replace_all) {
    std::string lines;
    for (size_t i = 0; i < at.size() && i < 10; ++i)
      lines += (i ? ", " : "") + std::to_string(LineOf(data, at[i]));
    if (at.size() > 10) lines += ", ...";
    return Fail(ErrorCode::kInvalidArgument,
                "old_string is not unique in " + std::string(display) + ": found " +
                    std::to_string(at.size()) + " times (lines " + lines +
                    "). Include more surrounding context to make it unique, or set "
                    "replace_all=true to replace every occurrence.");
  }
  Edited e{std::string(), at.size()};
  e.text.reserve(data.size() + at.size() * new_s.size());
  size_t prev = 0;
  for (size_t pos : at) {
    e.text.append(data.substr(prev, pos - prev));
    e.text.append(new_s);
    prev = pos + old_s.size();
  }
  e.text.append(data.substr(prev));
  return e;
}

}  // namespace

EditFileTool::EditFileTool(std::shared_ptr<const FsEnv> env)
    : SimpleTool("edit_file",
                 "Edit a file by replacing exact text. old_string must match the file byte for "
                 "byte (including indentation) and occur exactly once, unless replace_all=true "
                 "replaces every occurrence. Read the file first; do not include read_file's "
                 "line-number prefixes in old_string or new_string.",
                 Schema()),
      env_(std::move(env)) {}

Result EditFileTool::Execute(const CallContext& ctx, const Json& args) const {
  const FsOptions& o = env_->options();
  auto path = StringArg(args, "path");
  if (!path) return Result::FromError(path.error());
  if (path->empty()) return Result::Fail("path is required");
  auto old_s = StringArg(args, "old_string");
  if (!old_s) return Result::FromError(old_s.error());
  auto new_s = StringArg(args, "new_string");
  if (!new_s) return Result::FromError(new_s.error());
  auto replace_all = BoolArg(args, "replace_all", false);
  if (!replace_all) return Result::FromError(replace_all.error());
  if (old_s->empty())
    return Result::Fail("old_string is required (use write_file to create a file)");
  if (*old_s == *new_s)
    return Result::Fail("old_string and new_string are identical; nothing to do");

  auto edit = [&](std::string_view data, std::string_view display) -> Expected<Edited> {
    if (LooksBinary(data))
      return Fail(ErrorCode::kInvalidArgument,
                  "cannot edit " + std::string(display) + ": it is a binary file");
    auto e = Apply(data, display, *old_s, *new_s, *replace_all);
    if (e && e->text.size() > o.write_max_bytes)
      return Fail(
          ErrorCode::kInvalidArgument,
          "the edited file would exceed the " + std::to_string(o.write_max_bytes) + "-byte limit");
    return e;
  };
  auto report = [](std::string_view display, size_t n) {
    return Result::Text("Edited " + std::string(display) + ": replaced " + std::to_string(n) +
                        (n == 1 ? " occurrence" : " occurrences"));
  };

  if (auto routed = env_->Route(ctx, *path)) {
    auto data = routed->router->Read(ctx, routed->rel);
    if (!data) return Result::FromError(data.error());
    auto e = edit(*data, routed->rel);
    if (!e) return Result::FromError(e.error());
    if (auto st = routed->router->Write(ctx, routed->rel, e->text); !st)
      return Result::FromError(st.error());
    return report(routed->rel, e->count);
  }
  auto target = env_->Target(ctx, *path, FsAccess::kWrite);
  if (!target) return Result::FromError(target.error());
  auto data = target->fs->ReadFile(target->rel, o.write_max_bytes, FsAccess::kWrite);
  if (!data) return Result::FromError(data.error());
  auto e = edit(*data, target->display);
  if (!e) return Result::FromError(e.error());
  auto done = target->fs->WriteFileAtomic(target->rel, e->text, /*create_parents=*/false);
  if (!done) return Result::FromError(done.error());
  return report(target->display, e->count);
}

}  // namespace clawtools
