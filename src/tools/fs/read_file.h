// read_file: a text file's lines, numbered like `cat -n` (line number, TAB, text), from
// `offset` (1-based) for `limit` lines (default 2000). Long lines are cut at
// read_max_line_chars and the whole output at read_max_output_bytes, with a note saying how to
// page on. Binary files (NUL bytes or mostly invalid UTF-8) and files over read_max_file_bytes
// are refused. Virtual files go to their router.
#pragma once

#include <memory>

#include "core/tool.h"
#include "tools/fs/fs_env.h"

namespace clawtools {

class ReadFileTool : public SimpleTool {
 public:
  explicit ReadFileTool(std::shared_ptr<const FsEnv> env);
  Result Execute(const CallContext& ctx, const Json& args) const override;

 private:
  std::shared_ptr<const FsEnv> env_;
};

}  // namespace clawtools
