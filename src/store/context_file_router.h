// Routes the seven context files at the workspace root to the database (the seed's
// ContextFileInterceptor): SOUL.md, IDENTITY.md, AGENTS.md, TOOLS.md, HEARTBEAT.md, USER.md and
// BOOTSTRAP.md, exact and case-sensitive; `sub/SOUL.md` or `soul.md` stay on disk.
//
// Where a file lives depends on the agent type:
//   open agent, user id set:       per user (user_context_files); a read falls back to the
//                                  agent-level template (agent_context_files)
//   predefined agent, USER.md,
//   user id set:                   per user, same fallback
//   anything else (incl. no user): agent level
// Writing an empty BOOTSTRAP.md deletes the row at the location a write would go to.
//
// The agent is CallContext::agent_id() ("default" when empty). Its type comes from the agents
// table, else from the configured map, else it is open.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "store/agent_store.h"
#include "store/context_file_store.h"
#include "tools/fs/virtual_files.h"

namespace clawtools::store {

inline constexpr std::string_view kDefaultAgentId = "default";

class ContextFileRouter final : public VirtualFileRouter {
 public:
  // `configured`: agent id -> type from config (agents.list[] = {id, type}). `store` must
  // outlive the router.
  explicit ContextFileRouter(Store& store, std::map<std::string, AgentType> configured = {});

  static bool IsContextFile(std::string_view rel_path);

  bool Handles(const CallContext& ctx, std::string_view rel_path) const override;
  Expected<std::string> Read(const CallContext& ctx, std::string_view rel_path) const override;
  Status Write(const CallContext& ctx, std::string_view rel_path,
               std::string_view content) const override;
  // At the root: the context files this caller would read, with the size of the copy a read
  // returns. Elsewhere: nothing.
  Expected<std::vector<VirtualEntry>> List(const CallContext& ctx,
                                           std::string_view rel_dir) const override;

  // The type routing uses for `agent_id`.
  Expected<AgentType> TypeOf(std::string_view agent_id) const;

 private:
  AgentStore agents_;
  ContextFileStore files_;
  const std::map<std::string, AgentType, std::less<>> configured_;
};

}  // namespace clawtools::store
