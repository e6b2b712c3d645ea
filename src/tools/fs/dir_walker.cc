#include "tools/fs/dir_walker.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "tools/fs/gitignore.h"

namespace clawtools {
namespace {

struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

std::string Join(std::string_view dir, std::string_view name) {
  std::string s;
  s.reserve(dir.size() + name.size() + 1);
  s += dir;
  if (!dir.empty()) s += '/';
  s += name;
  return s;
}

// Reads the .gitignore in `dirfd`, if any (a symlinked one is ignored: O_NOFOLLOW).
GitignoreFile LoadGitignore(int dirfd) {
  UniqueFd fd(::openat(dirfd, ".gitignore", O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) return {};
  std::string text;
  char buf[16384];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || text.size() > (1u << 20)) break;
    text.append(buf, static_cast<size_t>(n));
  }
  return GitignoreFile::Parse(text);
}

struct WorkItem {
  std::shared_ptr<UniqueFd> parent;  // null for the start folder
  std::string name;                  // within parent
  std::string rel;
  std::shared_ptr<const IgnoreStack> ignore;
  int depth;
  UniqueFd start_fd;  // the start folder's fd, when parent is null
};

class Walker {
 public:
  Walker(const WorkspaceFs& fs, const WalkOptions& o,
         const std::function<bool(const WalkEntry&)>& visit)
      : fs_(fs), opts_(o), visit_(visit) {}

  void Run(WorkItem start) {
    stack_.push_back(std::move(start));
    int n = std::max(1, opts_.threads);
    std::vector<std::jthread> threads;
    for (int i = 1; i < n; ++i) threads.emplace_back([this] { Work(); });
    Work();
  }

 private:
  void Work() {
    std::vector<WorkItem> children;
    for (;;) {
      WorkItem item;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stop_ || !stack_.empty() || active_ == 0; });
        if (stop_ || stack_.empty()) {
          cv_.notify_all();
          return;
        }
        item = std::move(stack_.back());
        stack_.pop_back();
        ++active_;
      }
      children.clear();
      Process(item, children);
      std::lock_guard lock(mu_);
      --active_;
      for (auto& c : children) stack_.push_back(std::move(c));
      cv_.notify_all();
    }
  }

  void Process(WorkItem& item, std::vector<WorkItem>& children) {
    auto fd = std::make_shared<UniqueFd>();
    if (item.parent) {
      fd->reset(::openat(item.parent->get(), item.name.c_str(),
                         O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      item.parent.reset();
      if (!fd->valid()) return;  // vanished or unreadable: skip like rg does
    } else {
      *fd = std::move(item.start_fd);
    }
    std::shared_ptr<const IgnoreStack> ignore = item.ignore;
    if (opts_.gitignore) {
      GitignoreFile gi = LoadGitignore(fd->get());
      if (!gi.empty()) ignore = IgnoreStack::Push(ignore, item.rel, std::move(gi));
    }
    auto entries = ReadDirEntries(fd->get());
    if (!entries) return;
    for (auto& e : *entries) {
      if (stop_.load(std::memory_order_relaxed)) return;
      if (e.name == ".git") continue;
      std::string rel = Join(item.rel, e.name);
      if (fs_.IsDenied(rel, FsAccess::kRead)) continue;
      bool is_dir = e.type == DT_DIR;
      if (opts_.gitignore && IgnoreStack::Ignored(ignore.get(), rel, is_dir)) continue;
      WalkEntry we{fd->get(), e.name, rel, e.type};
      if (!visit_(we)) {
        stop_ = true;
        return;
      }
      if (is_dir && (opts_.max_depth < 0 || item.depth + 1 < opts_.max_depth)) {
        children.push_back(
            WorkItem{fd, std::move(e.name), std::move(rel), ignore, item.depth + 1, UniqueFd()});
      }
    }
  }

  const WorkspaceFs& fs_;
  const WalkOptions& opts_;
  const std::function<bool(const WalkEntry&)>& visit_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<WorkItem> stack_;  // LIFO keeps the number of open folder fds small
  int active_ = 0;
  std::atomic<bool> stop_{false};
};

}  // namespace

Expected<std::vector<DirEntry>> ReadDirEntries(int dirfd) {
  std::vector<DirEntry> out;
  alignas(LinuxDirent64) char buf[32768];
  // getdents64 reads from the fd's offset; a dup shares it, so read via a fresh fd of ".".
  UniqueFd fd(::openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid())
    return Fail(ErrorCode::kInternal, std::string("cannot read folder: ") + std::strerror(errno));
  for (;;) {
    long n = ::syscall(SYS_getdents64, fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Fail(ErrorCode::kInternal, std::string("cannot read folder: ") + std::strerror(errno));
    }
    if (n == 0) break;
    for (long off = 0; off < n;) {
      auto* d = reinterpret_cast<LinuxDirent64*>(buf + off);
      off += d->d_reclen;
      std::string_view name(d->d_name);
      if (name == "." || name == "..") continue;
      DirEntry e{std::string(name), d->d_type};
      if (e.type == DT_UNKNOWN) {
        struct stat st;
        if (::fstatat(fd.get(), d->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
          e.type = S_ISDIR(st.st_mode)   ? DT_DIR
                   : S_ISREG(st.st_mode) ? DT_REG
                   : S_ISLNK(st.st_mode) ? DT_LNK
                                         : DT_UNKNOWN;
        }
      }
      out.push_back(std::move(e));
    }
  }
  return out;
}

Expected<std::string> WalkTree(const WorkspaceFs& fs, std::string_view start_rel,
                               const WalkOptions& options,
                               const std::function<bool(const WalkEntry&)>& visit) {
  auto start = fs.OpenDir(start_rel);
  if (!start) return std::unexpected(start.error());
  std::shared_ptr<const IgnoreStack> ignore;
  if (options.gitignore && !start->rel.empty()) {
    // The ancestors' .gitignore files apply too, as in git.
    std::string prefix;
    size_t pos = 0;
    for (;;) {
      auto dir = fs.OpenDir(prefix);
      if (dir) {
        GitignoreFile gi = LoadGitignore(dir->fd.get());
        if (!gi.empty()) ignore = IgnoreStack::Push(ignore, prefix, std::move(gi));
      }
      size_t slash = start->rel.find('/', pos);
      if (slash == std::string::npos) break;
      prefix = start->rel.substr(0, slash);
      pos = slash + 1;
    }
  }
  std::string rel = start->rel;
  Walker w(fs, options, visit);
  w.Run(WorkItem{nullptr, "", rel, std::move(ignore), 0, std::move(start->fd)});
  return rel;
}

}  // namespace clawtools
