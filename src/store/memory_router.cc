#include "store/memory_router.h"

#include <map>

#include "store/context_file_router.h"
#include "store/str_cat.h"

namespace clawtools::store {
namespace {

std::string AgentOf(const CallContext& ctx) {
  return ctx.agent_id().empty() ? std::string(kDefaultAgentId) : ctx.agent_id();
}

}  // namespace

bool MemoryRouter::IsMemoryPath(std::string_view rel_path) {
  return rel_path == "MEMORY.md" || rel_path == "memory.md" ||
         (rel_path.starts_with("memory/") && rel_path.size() > 7);
}

bool MemoryRouter::Handles(const CallContext&, std::string_view rel_path) const {
  return IsMemoryPath(rel_path);
}

Expected<std::string> MemoryRouter::Read(const CallContext& ctx, std::string_view rel_path) const {
  std::string agent = AgentOf(ctx);
  auto doc = memory_.GetDocument(agent, ctx.user_id(), rel_path);
  if (!doc) return std::unexpected(doc.error());
  if (!*doc && !ctx.user_id().empty()) {
    doc = memory_.GetDocument(agent, "", rel_path);
    if (!doc) return std::unexpected(doc.error());
  }
  if (!*doc) return Fail(ErrorCode::kNotFound, StrCat("memory file not found: ", rel_path));
  return std::move((*doc)->content);
}

Status MemoryRouter::Write(const CallContext& ctx, std::string_view rel_path,
                           std::string_view content) const {
  auto doc = memory_.PutDocument(AgentOf(ctx), ctx.user_id(), rel_path, content);
  if (!doc) return std::unexpected(doc.error());
  return {};
}

Expected<std::vector<VirtualEntry>> MemoryRouter::List(const CallContext& ctx,
                                                       std::string_view rel_dir) const {
  std::string prefix;
  if (!rel_dir.empty() && rel_dir != ".") prefix = StrCat(rel_dir, "/");
  std::string agent = AgentOf(ctx);
  std::map<std::string, size_t> merged;  // sorted, and a later insert_or_assign shadows
  auto add = [&](std::string_view user) -> Status {
    auto docs = memory_.ListDocuments(agent, user);
    if (!docs) return std::unexpected(docs.error());
    for (const MemoryDocument& d : *docs) {
      if (IsMemoryPath(d.path) && d.path.starts_with(prefix))
        merged.insert_or_assign(d.path, d.content.size());
    }
    return {};
  };
  if (auto st = add(""); !st) return std::unexpected(st.error());
  if (!ctx.user_id().empty()) {
    if (auto st = add(ctx.user_id()); !st) return std::unexpected(st.error());
  }
  std::vector<VirtualEntry> out;
  for (auto& [path, size] : merged) out.push_back({path, size});
  return out;
}

}  // namespace clawtools::store
