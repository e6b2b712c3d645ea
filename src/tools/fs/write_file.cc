#include "tools/fs/write_file.h"

#include "tools/fs/args.h"

namespace clawtools {
namespace {

Json Schema() {
  return Json::parse(R"({
    "type": "object",
    "properties": {
      "path": {"type": "string", "description": "File to write: relative to the workspace, or an absolute path inside it. Missing parent folders are created."},
      "content": {"type": "string", "description": "The complete new content of the file (or the text to add, with append=true)."},
      "append": {"type": "boolean", "description": "Add content to the end of the file instead of replacing it (default false)."}
    },
    "required": ["path", "content"]
  })");
}

std::string TooBig(size_t size, size_t cap) {
  return "content would make the file " + std::to_string(size) + " bytes, over the " +
         std::to_string(cap) + "-byte limit; split it into smaller files";
}

}  // namespace

WriteFileTool::WriteFileTool(std::shared_ptr<const FsEnv> env)
    : SimpleTool("write_file",
                 "Write a file in the workspace, replacing its content (or appending with "
                 "append=true). Creates missing folders. The write is atomic: readers see the "
                 "old or the new content, never a mix. Prefer edit_file for changing part of an "
                 "existing file.",
                 Schema()),
      env_(std::move(env)) {}

Result WriteFileTool::Execute(const CallContext& ctx, const Json& args) const {
  const FsOptions& o = env_->options();
  auto path = StringArg(args, "path");
  if (!path) return Result::FromError(path.error());
  if (path->empty()) return Result::Fail("path is required");
  auto content = StringArg(args, "content");
  if (!content) return Result::FromError(content.error());
  auto append = BoolArg(args, "append", false);
  if (!append) return Result::FromError(append.error());

  if (auto routed = env_->Route(ctx, *path)) {
    std::string data = std::move(*content);
    if (*append) {
      auto old = routed->router->Read(ctx, routed->rel);
      if (!old && old.error().code != ErrorCode::kNotFound) return Result::FromError(old.error());
      if (old) data = *old + data;
    }
    if (data.size() > o.write_max_bytes)
      return Result::Fail(TooBig(data.size(), o.write_max_bytes));
    if (auto st = routed->router->Write(ctx, routed->rel, data); !st)
      return Result::FromError(st.error());
    return Result::Text(std::string(*append ? "Appended to " : "Wrote ") + routed->rel + " (" +
                        std::to_string(data.size()) + " bytes)");
  }

  auto target = env_->Target(ctx, *path, FsAccess::kWrite);
  if (!target) return Result::FromError(target.error());
  std::string data;
  std::string_view to_write = *content;
  if (*append) {
    auto old = target->fs->ReadFile(target->rel, o.write_max_bytes, FsAccess::kWrite);
    if (!old && old.error().code != ErrorCode::kNotFound) return Result::FromError(old.error());
    if (old) {
      data = std::move(*old) + *content;
      to_write = data;
    }
  }
  if (to_write.size() > o.write_max_bytes)
    return Result::Fail(TooBig(to_write.size(), o.write_max_bytes));
  auto done = target->fs->WriteFileAtomic(target->rel, to_write);
  if (!done) return Result::FromError(done.error());
  std::string verb =
      *append ? (done->created ? "Created" : "Appended to") : (done->created ? "Created" : "Wrote");
  return Result::Text(verb + " " + target->display + " (" + std::to_string(to_write.size()) +
                      " bytes" +
                      (*append ? ", " + std::to_string(content->size()) + " added" : "") + ")");
}

}  // namespace clawtools
