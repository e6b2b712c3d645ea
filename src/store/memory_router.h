// Routes agent memory to the database (the seed's MemoryInterceptor): MEMORY.md and memory.md
// at the workspace root, and every file under memory/ at any depth.
//
// Reads look in the caller's scope (CallContext::user_id()) and fall back to the agent's
// global scope (""); writes always go to the caller's scope, so a user never overwrites
// global memory (a caller without a user id writes global). Writing a .md file re-chunks it
// for search (MemoryStore). Listing merges both scopes; a user document shadows the global one
// at the same path. The agent is CallContext::agent_id(), "default" when empty.
#pragma once

#include <string_view>

#include "store/memory_store.h"
#include "tools/fs/virtual_files.h"

namespace clawtools::store {

class MemoryRouter final : public VirtualFileRouter {
 public:
  // `memory` must outlive the router.
  explicit MemoryRouter(const MemoryStore& memory) : memory_(memory) {}

  static bool IsMemoryPath(std::string_view rel_path);

  bool Handles(const CallContext& ctx, std::string_view rel_path) const override;
  Expected<std::string> Read(const CallContext& ctx, std::string_view rel_path) const override;
  Status Write(const CallContext& ctx, std::string_view rel_path,
               std::string_view content) const override;
  // Memory documents under `rel_dir` ("" = all of them), sorted by path.
  Expected<std::vector<VirtualEntry>> List(const CallContext& ctx,
                                           std::string_view rel_dir) const override;

 private:
  const MemoryStore& memory_;
};

}  // namespace clawtools::store
