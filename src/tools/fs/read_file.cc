#include "tools/fs/read_file.h"

#include <cstdio>
#include <limits>

#include "tools/fs/args.h"
#include "tools/fs/text.h"

namespace clawtools {
namespace {

Json Schema() {
  return Json::parse(R"({
    "type": "object",
    "properties": {
      "path": {"type": "string", "description": "File to read: relative to the workspace, or an absolute path inside it."},
      "offset": {"type": "integer", "minimum": 1, "description": "1-based line number to start at (default 1). Use it to page through long files."},
      "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of lines to return (default 2000)."}
    },
    "required": ["path"]
  })");
}

std::string Format(std::string_view data, std::string_view display, size_t offset, size_t limit,
                   const FsOptions& o) {
  std::string out;
  size_t line_no = 0, shown = 0, cut_lines = 0, pos = 0;
  size_t first_shown = 0, last_shown = 0;
  bool out_full = false;
  while (pos < data.size()) {
    size_t nl = data.find('\n', pos);
    size_t end = nl == std::string_view::npos ? data.size() : nl;
    ++line_no;
    if (line_no >= offset && shown < limit && !out_full) {
      std::string_view line = data.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      std::string_view kept = Utf8Prefix(line, o.read_max_line_chars);
      if (out.size() + kept.size() + 16 > o.read_max_output_bytes && shown > 0) {
        out_full = true;
      } else {
        char num[32];
        std::snprintf(num, sizeof num, "%6zu\t", line_no);
        out += num;
        out += kept;
        if (kept.size() < line.size()) {
          out += " [... line cut at " + std::to_string(o.read_max_line_chars) + " chars]";
          ++cut_lines;
        }
        out += '\n';
        if (shown++ == 0) first_shown = line_no;
        last_shown = line_no;
      }
    }
    pos = end + 1;
  }
  size_t total = line_no;
  if (total == 0) return "(" + std::string(display) + " is empty)";
  if (offset > total) return "";  // caller reports the error
  if (last_shown < total) {
    out += "\n[Showing lines " + std::to_string(first_shown) + "-" + std::to_string(last_shown) +
           " of " + std::to_string(total) + (out_full ? " (output size limit reached)" : "") +
           ". To read more, call read_file with offset=" + std::to_string(last_shown + 1) + ".]";
  }
  if (cut_lines > 0)
    out += "\n[" + std::to_string(cut_lines) + " line(s) longer than " +
           std::to_string(o.read_max_line_chars) +
           " chars were cut; use search with output_mode=content to find text in them.]";
  return out;
}

}  // namespace

ReadFileTool::ReadFileTool(std::shared_ptr<const FsEnv> env)
    : SimpleTool("read_file",
                 "Read a text file from the workspace. Returns numbered lines (cat -n style: "
                 "line number, TAB, text), by default the first 2000 lines; use offset and limit "
                 "to page through longer files. Lines longer than 2000 characters are cut. "
                 "Binary files are refused. Do not include the line-number prefix when you "
                 "later edit the text.",
                 Schema()),
      env_(std::move(env)) {}

Result ReadFileTool::Execute(const CallContext& ctx, const Json& args) const {
  const FsOptions& o = env_->options();
  auto path = StringArg(args, "path");
  if (!path) return Result::FromError(path.error());
  if (path->empty()) return Result::Fail("path is required");
  auto offset = IntArg(args, "offset", 1, 1, std::numeric_limits<int32_t>::max());
  if (!offset) return Result::FromError(offset.error());
  auto limit = IntArg(args, "limit", static_cast<int64_t>(o.read_default_lines), 1,
                      std::numeric_limits<int32_t>::max());
  if (!limit) return Result::FromError(limit.error());

  std::string data, display;
  if (auto routed = env_->Route(ctx, *path)) {
    auto content = routed->router->Read(ctx, routed->rel);
    if (!content) return Result::FromError(content.error());
    data = std::move(*content);
    display = routed->rel;
  } else {
    auto target = env_->Target(ctx, *path, FsAccess::kRead);
    if (!target) return Result::FromError(target.error());
    auto content = target->fs->ReadFile(target->rel, o.read_max_file_bytes);
    if (!content) {
      Error e = content.error();
      if (e.for_model.find("-byte limit") != std::string::npos)
        e.for_model += ". Use search to find the lines you need.";
      return Result::FromError(e);
    }
    data = std::move(*content);
    display = target->display;
  }
  if (LooksBinary(data))
    return Result::Fail("cannot read " + display + ": it is a binary file (" +
                        std::to_string(data.size()) + " bytes), not text");
  std::string out =
      Format(data, display, static_cast<size_t>(*offset), static_cast<size_t>(*limit), o);
  if (out.empty()) {
    size_t lines = 0;
    for (char c : data) lines += c == '\n';
    if (!data.empty() && data.back() != '\n') ++lines;
    return Result::Fail("offset " + std::to_string(*offset) + " is past the end of " + display +
                        " (" + std::to_string(lines) + " lines)");
  }
  return Result::Text(std::move(out));
}

}  // namespace clawtools
