// Virtual files: paths that the filesystem tools route to the store instead of the disk
// (the seed's ContextFileInterceptor and MemoryInterceptor). The fs tools ask each router in
// turn; the first that handles a path answers. Implementations must be thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/call_context.h"
#include "core/error.h"

namespace clawtools {

struct VirtualEntry {
  std::string path;  // workspace-relative, '/'-separated
  size_t size = 0;
};

class VirtualFileRouter {
 public:
  virtual ~VirtualFileRouter() = default;

  // `rel_path` is workspace-relative, normalised ('a/b.md', no '..', no leading '/').
  virtual bool Handles(const CallContext& ctx, std::string_view rel_path) const = 0;
  // Called only when Handles() is true. kNotFound when the file does not exist.
  virtual Expected<std::string> Read(const CallContext& ctx, std::string_view rel_path) const = 0;
  virtual Status Write(const CallContext& ctx, std::string_view rel_path,
                       std::string_view content) const = 0;
  // Virtual files visible under the workspace-relative directory `rel_dir` ("" = root),
  // recursively; list_files, glob and search merge these with what is on disk.
  virtual Expected<std::vector<VirtualEntry>> List(const CallContext& ctx,
                                                   std::string_view rel_dir) const = 0;
};

}  // namespace clawtools
