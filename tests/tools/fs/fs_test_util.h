// Shared fixtures for the fs tool tests: a temporary sandbox holding a workspace and an
// "outside" folder, file helpers, a CallContext builder and an in-memory VirtualFileRouter.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>

#include "core/call_context.h"
#include "core/tool.h"
#include "tools/fs/fs_options.h"
#include "tools/fs/fs_tools.h"
#include "tools/fs/virtual_files.h"

namespace clawtools::testing_fs {

namespace fs = std::filesystem;

inline void WriteText(const fs::path& p, std::string_view text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

inline std::string ReadText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh folder with `ws/` (the workspace), `ws-evil/` (a prefix sibling) and `outside/`.
class Sandbox {
 public:
  Sandbox() {
    std::string tmpl = (fs::temp_directory_path() / "clawfs-XXXXXX").string();
    root_ = ::mkdtemp(tmpl.data());
    fs::create_directories(ws());
    fs::create_directories(root_ / "ws-evil");
    fs::create_directories(outside());
    WriteText(outside() / "secret.txt", "TOP SECRET\n");
    WriteText(root_ / "ws-evil" / "x.txt", "EVIL SIBLING\n");
  }
  ~Sandbox() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  fs::path root() const { return root_; }
  fs::path ws() const { return root_ / "ws"; }
  fs::path outside() const { return root_ / "outside"; }

 private:
  fs::path root_;
};

inline CallContext MakeCtx(const std::string& workspace, std::stop_token stop = {}) {
  CallRequest req;
  return CallContext(req, "test", workspace, CallContext::Clock::time_point::max(), stop);
}

// In-memory virtual files: every path under `prefix` (e.g. "memory/") plus explicit names.
class FakeRouter : public VirtualFileRouter {
 public:
  explicit FakeRouter(std::vector<std::string> handled) : handled_(std::move(handled)) {}

  bool Handles(const CallContext&, std::string_view rel) const override {
    for (const auto& h : handled_)
      if (rel == h || (h.ends_with('/') && rel.starts_with(h))) return true;
    return false;
  }
  Expected<std::string> Read(const CallContext&, std::string_view rel) const override {
    std::lock_guard l(mu_);
    auto it = files_.find(std::string(rel));
    if (it == files_.end())
      return Fail(ErrorCode::kNotFound, "no virtual file " + std::string(rel));
    return it->second;
  }
  Status Write(const CallContext&, std::string_view rel, std::string_view content) const override {
    std::lock_guard l(mu_);
    files_[std::string(rel)] = std::string(content);
    return {};
  }
  Expected<std::vector<VirtualEntry>> List(const CallContext&,
                                           std::string_view dir) const override {
    std::lock_guard l(mu_);
    std::vector<VirtualEntry> out;
    for (const auto& [p, c] : files_)
      if (dir.empty() || p.starts_with(std::string(dir) + "/")) out.push_back({p, c.size()});
    return out;
  }
  std::string Get(const std::string& p) const {
    std::lock_guard l(mu_);
    auto it = files_.find(p);
    return it == files_.end() ? "" : it->second;
  }

 private:
  std::vector<std::string> handled_;
  mutable std::mutex mu_;
  mutable std::map<std::string, std::string> files_;
};

// The six tools over a sandbox, looked up by name.
class Tools {
 public:
  Tools(FsOptions o, std::vector<std::shared_ptr<const VirtualFileRouter>> routers = {}) {
    for (auto& t : MakeFsTools(std::move(o), std::move(routers))) tools_[t->name()] = t;
  }
  Result Call(const std::string& tool, const CallContext& ctx, const Json& args) const {
    return tools_.at(tool)->Execute(ctx, args);
  }
  const Tool& Get(const std::string& tool) const { return *tools_.at(tool); }

 private:
  std::map<std::string, std::shared_ptr<const Tool>> tools_;
};

}  // namespace clawtools::testing_fs
