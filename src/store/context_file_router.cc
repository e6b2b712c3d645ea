#include "store/context_file_router.h"

#include <array>

#include "store/str_cat.h"

namespace clawtools::store {
namespace {

constexpr std::array<std::string_view, 7> kContextFiles = {
    "AGENTS.md", "BOOTSTRAP.md", "HEARTBEAT.md", "IDENTITY.md", "SOUL.md", "TOOLS.md", "USER.md"};

std::string AgentOf(const CallContext& ctx) {
  return ctx.agent_id().empty() ? std::string(kDefaultAgentId) : ctx.agent_id();
}

bool PerUser(AgentType type, std::string_view file, std::string_view user) {
  if (user.empty()) return false;
  return type == AgentType::kOpen || file == "USER.md";
}

}  // namespace

ContextFileRouter::ContextFileRouter(Store& store, std::map<std::string, AgentType> configured)
    : agents_(store), files_(store), configured_(configured.begin(), configured.end()) {}

bool ContextFileRouter::IsContextFile(std::string_view rel_path) {
  return std::ranges::find(kContextFiles, rel_path) != kContextFiles.end();
}

bool ContextFileRouter::Handles(const CallContext&, std::string_view rel_path) const {
  return IsContextFile(rel_path);
}

Expected<AgentType> ContextFileRouter::TypeOf(std::string_view agent_id) const {
  auto agent = agents_.Get(agent_id);
  if (!agent) return std::unexpected(agent.error());
  if (*agent) return (*agent)->type;
  auto it = configured_.find(agent_id);
  return it != configured_.end() ? it->second : AgentType::kOpen;
}

Expected<std::string> ContextFileRouter::Read(const CallContext& ctx,
                                              std::string_view rel_path) const {
  std::string agent = AgentOf(ctx);
  auto type = TypeOf(agent);
  if (!type) return std::unexpected(type.error());
  if (PerUser(*type, rel_path, ctx.user_id())) {
    auto mine = files_.GetUserFile(agent, ctx.user_id(), rel_path);
    if (!mine) return std::unexpected(mine.error());
    if (*mine) return std::move((*mine)->content);
  }
  auto shared = files_.GetAgentFile(agent, rel_path);
  if (!shared) return std::unexpected(shared.error());
  if (*shared) return std::move((*shared)->content);
  return Fail(ErrorCode::kNotFound, StrCat("context file not found: ", rel_path));
}

Status ContextFileRouter::Write(const CallContext& ctx, std::string_view rel_path,
                                std::string_view content) const {
  std::string agent = AgentOf(ctx);
  auto type = TypeOf(agent);
  if (!type) return std::unexpected(type.error());
  const bool per_user = PerUser(*type, rel_path, ctx.user_id());
  if (rel_path == "BOOTSTRAP.md" && content.empty()) {
    auto deleted = per_user ? files_.DeleteUserFile(agent, ctx.user_id(), rel_path)
                            : files_.DeleteAgentFile(agent, rel_path);
    if (!deleted) return std::unexpected(deleted.error());
    return {};
  }
  return per_user ? files_.PutUserFile(agent, ctx.user_id(), rel_path, content)
                  : files_.PutAgentFile(agent, rel_path, content);
}

Expected<std::vector<VirtualEntry>> ContextFileRouter::List(const CallContext& ctx,
                                                            std::string_view rel_dir) const {
  if (!rel_dir.empty() && rel_dir != ".") return std::vector<VirtualEntry>{};
  std::string agent = AgentOf(ctx);
  auto type = TypeOf(agent);
  if (!type) return std::unexpected(type.error());
  auto shared = files_.ListAgentFiles(agent);
  if (!shared) return std::unexpected(shared.error());
  std::vector<ContextFile> mine;
  if (!ctx.user_id().empty()) {
    auto listed = files_.ListUserFiles(agent, ctx.user_id());
    if (!listed) return std::unexpected(listed.error());
    mine = std::move(*listed);
  }
  auto find = [](const std::vector<ContextFile>& v, std::string_view name) -> const ContextFile* {
    auto it = std::ranges::find(v, name, &ContextFile::file_name);
    return it == v.end() ? nullptr : &*it;
  };
  std::vector<VirtualEntry> out;
  for (std::string_view name : kContextFiles) {
    const ContextFile* f = PerUser(*type, name, ctx.user_id()) ? find(mine, name) : nullptr;
    if (!f) f = find(*shared, name);
    if (f) out.push_back({std::string(name), f->content.size()});
  }
  return out;
}

}  // namespace clawtools::store
