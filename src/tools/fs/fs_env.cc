#include "tools/fs/fs_env.h"

#include <algorithm>
#include <filesystem>
#include <thread>

namespace clawtools {

std::string FsEnv::WorkspaceRoot(const CallContext& ctx) const {
  return ctx.workspace().empty() ? options_.workspace : ctx.workspace();
}

int FsEnv::WalkThreads() const {
  if (options_.search_threads > 0) return options_.search_threads;
  return std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 2, 4);
}

Expected<std::shared_ptr<const WorkspaceFs>> FsEnv::OpenWorkspace(const CallContext& ctx,
                                                                  FsAccess access) const {
  WorkspaceFs::Options o{.writable = true, .deny = options_.deny, .mode = options_.resolve_mode};
  return WorkspaceFs::Open(WorkspaceRoot(ctx), std::move(o), access == FsAccess::kWrite);
}

Expected<FsTarget> FsEnv::Target(const CallContext& ctx, std::string_view user_path,
                                 FsAccess access) const {
  auto ws = OpenWorkspace(ctx, access);
  if (!ws) return std::unexpected(ws.error());
  bool absolute = !user_path.empty() && user_path.front() == '/';
  if (!absolute || (*ws)->Contains(user_path)) {
    auto rel = (*ws)->Relativize(user_path);
    if (!rel) return std::unexpected(rel.error());
    std::string display = rel->empty() ? "." : *rel;
    return FsTarget{*ws, std::move(*rel), true, std::move(display)};
  }
  for (const auto& root : options_.extra_roots) {
    WorkspaceFs::Options o{.writable = root.writable, .mode = options_.resolve_mode};
    auto fs = WorkspaceFs::Open(root.path, std::move(o));
    if (!fs || !(*fs)->Contains(user_path)) continue;
    if (access == FsAccess::kWrite && !root.writable)
      return Fail(ErrorCode::kPermissionDenied,
                  "access denied: " + std::string(user_path) + " is in a read-only folder");
    auto rel = (*fs)->Relativize(user_path);
    if (!rel) return std::unexpected(rel.error());
    return FsTarget{*fs, std::move(*rel), false, std::string(user_path)};
  }
  // Validate first so a NUL byte or overlong path gets its own message.
  if (auto rel = (*ws)->Relativize(user_path); !rel) return std::unexpected(rel.error());
  return Fail(ErrorCode::kPermissionDenied,
              "access denied: path is outside the workspace: " + std::string(user_path));
}

std::optional<std::string> FsEnv::VirtualRel(const CallContext& ctx,
                                             std::string_view user_path) const {
  if (user_path.find('\0') != std::string_view::npos) return std::nullopt;
  std::filesystem::path p{std::string(user_path)};
  if (p.is_absolute()) {
    std::filesystem::path root = std::filesystem::path(WorkspaceRoot(ctx)).lexically_normal();
    std::filesystem::path rel = p.lexically_normal().lexically_relative(root);
    if (rel.empty()) return std::nullopt;
    p = rel;
  }
  std::string s = p.lexically_normal().generic_string();
  if (s == "." || s == "./") return std::string();
  if (s == ".." || s.starts_with("../")) return std::nullopt;
  while (s.ends_with('/')) s.pop_back();
  return s;
}

std::optional<FsEnv::Routed> FsEnv::Route(const CallContext& ctx,
                                          std::string_view user_path) const {
  if (routers_.empty()) return std::nullopt;
  auto rel = VirtualRel(ctx, user_path);
  if (!rel || rel->empty()) return std::nullopt;
  for (const auto& r : routers_)
    if (r->Handles(ctx, *rel)) return Routed{r.get(), std::move(*rel)};
  return std::nullopt;
}

}  // namespace clawtools
