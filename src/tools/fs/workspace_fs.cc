#include "tools/fs/workspace_fs.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <filesystem>
#include <optional>

namespace clawtools {
namespace {

#ifndef SYS_openat2
constexpr long SYS_openat2 = 437;
#endif

// Set once openat2 returned ENOSYS, so later calls go straight to the walk.
std::atomic<bool> g_no_openat2{false};

constexpr int kMaxSymlinks = 40;

std::vector<std::string> Split(std::string_view p) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= p.size()) {
    size_t j = p.find('/', i);
    if (j == std::string_view::npos) j = p.size();
    std::string_view c = p.substr(i, j - i);
    if (!c.empty() && c != ".") out.emplace_back(c);
    i = j + 1;
  }
  return out;
}

std::string Join(std::string_view dir, std::string_view name) {
  if (dir.empty()) return std::string(name);
  std::string s(dir);
  s += '/';
  s += name;
  return s;
}

std::string JoinAll(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s = Join(s, p);
  return s;
}

std::string Display(std::string_view rel) {
  return rel.empty() ? std::string(".") : std::string(rel);
}

Error ErrnoError(int err, std::string_view rel) {
  std::string p = Display(rel);
  switch (err) {
    case ENOENT:
      return MakeError(ErrorCode::kNotFound, "no such file or directory: " + p);
    case EXDEV:
      return EscapeError(p);
    case ELOOP:
      return MakeError(ErrorCode::kInvalidArgument, "too many levels of symbolic links: " + p);
    case ENOTDIR:
      return MakeError(ErrorCode::kInvalidArgument,
                       "a component of the path is not a folder: " + p);
    case EISDIR:
      return MakeError(ErrorCode::kInvalidArgument, "is a folder, not a file: " + p);
    case EACCES:
    case EPERM:
      return MakeError(ErrorCode::kPermissionDenied, "permission denied: " + p);
    case ENAMETOOLONG:
      return MakeError(ErrorCode::kInvalidArgument, "path is too long: " + p);
    case ENOSPC:
    case EDQUOT:
      return MakeError(ErrorCode::kUnavailable, "no space left on device writing " + p);
    case EROFS:
      return MakeError(ErrorCode::kPermissionDenied, "read-only file system: " + p);
    default:
      return MakeError(ErrorCode::kInternal, "cannot access " + p + ": " + std::strerror(err));
  }
}

std::optional<std::string> ReadLinkAt(int dirfd, const char* name) {
  std::string buf(PATH_MAX, '\0');
  ssize_t n = ::readlinkat(dirfd, name, buf.data(), buf.size());
  if (n < 0 || static_cast<size_t>(n) >= buf.size()) return std::nullopt;
  buf.resize(static_cast<size_t>(n));
  return buf;
}

std::string LexicalAbsolute(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  std::string s = (ec ? std::filesystem::path(path) : p).lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// Component-wise prefix test: returns the remainder of `abs` below `root`, or nullopt.
std::optional<std::string> StripPrefix(std::string_view abs, std::string_view root) {
  std::vector<std::string> a = Split(abs), r = Split(root);
  if (a.size() < r.size()) return std::nullopt;
  for (size_t i = 0; i < r.size(); ++i)
    if (a[i] != r[i]) return std::nullopt;
  return JoinAll(std::vector<std::string>(a.begin() + static_cast<long>(r.size()), a.end()));
}

bool WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::string TempName(std::string_view leaf) {
  static std::atomic<uint64_t> counter{0};
  auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  std::string base(leaf.substr(0, 120));
  return "." + base + ".tmp-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter.fetch_add(1)) + "-" + std::to_string(now & 0xffffff);
}

}  // namespace

Error EscapeError(std::string_view user_path) {
  return MakeError(ErrorCode::kPermissionDenied,
                   "access denied: path escapes the workspace: " + std::string(user_path));
}

Expected<std::shared_ptr<const WorkspaceFs>> WorkspaceFs::Open(const std::string& root,
                                                               Options opts, bool create) {
  if (root.empty()) return Fail(ErrorCode::kInvalidArgument, "no workspace folder configured");
  std::string configured = LexicalAbsolute(root);
  if (create) {
    std::error_code ec;
    std::filesystem::create_directories(configured, ec);
  }
  UniqueFd fd(::open(configured.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) {
    int err = errno;
    return Fail(err == ENOENT ? ErrorCode::kNotFound : ErrorCode::kUnavailable,
                "workspace folder is not available",
                "open(" + configured + "): " + std::strerror(err));
  }
  std::string real;
  if (auto link = ReadLinkAt(AT_FDCWD, ("/proc/self/fd/" + std::to_string(fd.get())).c_str())) {
    real = *link;
  } else {
    std::error_code ec;
    real = std::filesystem::canonical(configured, ec).string();
    if (ec) real = configured;
  }
  return std::shared_ptr<const WorkspaceFs>(
      new WorkspaceFs(std::move(fd), std::move(configured), std::move(real), std::move(opts)));
}

std::optional<std::string> WorkspaceFs::StripRoot(std::string_view abs_path) const {
  if (auto r = StripPrefix(abs_path, root_real_)) return r;
  return StripPrefix(abs_path, root_configured_);
}

bool WorkspaceFs::Contains(std::string_view abs_path) const {
  return StripRoot(abs_path).has_value();
}

Expected<std::string> WorkspaceFs::Relativize(std::string_view user_path) const {
  if (user_path.find('\0') != std::string_view::npos)
    return Fail(ErrorCode::kInvalidArgument, "path contains a NUL byte");
  if (user_path.size() >= PATH_MAX)
    return Fail(ErrorCode::kInvalidArgument,
                "path is too long (limit " + std::to_string(PATH_MAX - 1) + " bytes)");
  for (const auto& c : Split(user_path))
    if (c.size() > NAME_MAX)
      return Fail(ErrorCode::kInvalidArgument,
                  "a path component is longer than " + std::to_string(NAME_MAX) + " bytes");
  if (!user_path.empty() && user_path.front() == '/') {
    auto rel = StripRoot(user_path);
    if (!rel) {
      return Fail(ErrorCode::kPermissionDenied,
                  "access denied: path is outside the workspace: " + std::string(user_path));
    }
    return *rel;
  }
  return std::string(user_path);
}

bool WorkspaceFs::IsDenied(std::string_view rel, FsAccess access) const {
  for (const auto& rule : opts_.deny) {
    if (rule.writes_only && access == FsAccess::kRead) continue;
    std::string r = JoinAll(Split(rule.rel_path));
    if (r.empty()) continue;
    if (rel == r || (rel.size() > r.size() && rel.starts_with(r) && rel[r.size()] == '/'))
      return true;
  }
  return false;
}

Expected<std::string> WorkspaceFs::RelOfFd(int fd) const {
  auto link = ReadLinkAt(AT_FDCWD, ("/proc/self/fd/" + std::to_string(fd)).c_str());
  if (!link) return Fail(ErrorCode::kUnavailable, "/proc is not available");
  if (link->ends_with(" (deleted)")) return Fail(ErrorCode::kNotFound, "file was deleted");
  auto rel = StripPrefix(*link, root_real_);
  if (!rel) return std::unexpected(EscapeError(*link));
  return *rel;
}

Expected<WorkspaceFs::Opened> WorkspaceFs::Resolve(std::string_view rel, int flags,
                                                   bool follow_last) const {
  if (!follow_last) flags |= O_NOFOLLOW;
  if (opts_.mode == FsResolveMode::kAuto && !g_no_openat2.load(std::memory_order_relaxed)) {
    std::string path = rel.empty() ? std::string(".") : std::string(rel);
    open_how how{};
    how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    long fd = -1;
    int err = 0;
    for (int attempt = 0; attempt < 16; ++attempt) {  // EAGAIN: a concurrent rename raced ".."
      fd = ::syscall(SYS_openat2, root_.get(), path.c_str(), &how, sizeof(how));
      err = fd < 0 ? errno : 0;
      if (err != EAGAIN && err != EINTR) break;
    }
    if (fd >= 0) {
      Opened o;
      o.fd.reset(static_cast<int>(fd));
      if (::fstat(o.fd.get(), &o.st) != 0) return std::unexpected(ErrnoError(errno, rel));
      auto r = RelOfFd(o.fd.get());
      if (r) {
        o.rel = std::move(*r);
        return o;
      }
      // Without /proc we cannot name what we opened; the walk can.
    } else if (err == ENOSYS) {
      g_no_openat2.store(true, std::memory_order_relaxed);
    } else if (err != EXDEV && err != EINVAL && err != E2BIG && err != EPERM) {
      // EXDEV also covers absolute symlinks, which the walk maps back inside the root.
      return std::unexpected(ErrnoError(err, rel));
    }
  }
  return ResolveWalk(rel, flags, follow_last);
}

Expected<WorkspaceFs::Opened> WorkspaceFs::ResolveWalk(std::string_view rel, int flags,
                                                       bool follow_last) const {
  std::vector<UniqueFd> fds;  // fds[i]: the (i+1)-th folder below the root, opened O_PATH
  std::vector<std::string> names;
  std::deque<std::string> todo;
  for (auto& c : Split(rel)) todo.push_back(std::move(c));
  int links = 0;
  auto cur = [&] { return fds.empty() ? root_.get() : fds.back().get(); };
  while (!todo.empty()) {
    std::string comp = std::move(todo.front());
    todo.pop_front();
    if (comp == "..") {
      if (fds.empty()) return std::unexpected(EscapeError(Display(rel)));
      fds.pop_back();
      names.pop_back();
      continue;
    }
    bool last = todo.empty();
    struct stat st;
    if (::fstatat(cur(), comp.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
      return std::unexpected(ErrnoError(errno, rel));
    if (S_ISLNK(st.st_mode) && (!last || follow_last)) {
      if (++links > kMaxSymlinks) return std::unexpected(ErrnoError(ELOOP, rel));
      auto target = ReadLinkAt(cur(), comp.c_str());
      if (!target || target->empty()) return std::unexpected(ErrnoError(ENOENT, rel));
      std::vector<std::string> tcomps;
      if (target->front() == '/') {
        auto inside = StripRoot(*target);
        if (!inside) return std::unexpected(EscapeError(Display(rel)));
        fds.clear();
        names.clear();
        tcomps = Split(*inside);
      } else {
        tcomps = Split(*target);
      }
      todo.insert(todo.begin(), tcomps.begin(), tcomps.end());
      continue;
    }
    if (!last) {
      if (!S_ISDIR(st.st_mode)) return std::unexpected(ErrnoError(ENOTDIR, rel));
      int fd = ::openat(cur(), comp.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0) return std::unexpected(ErrnoError(errno, rel));
      fds.emplace_back(fd);
      names.push_back(std::move(comp));
      continue;
    }
    Opened o;
    o.fd.reset(::openat(cur(), comp.c_str(), flags | O_NOFOLLOW | O_CLOEXEC));
    if (!o.fd.valid()) return std::unexpected(ErrnoError(errno, rel));
    if (::fstat(o.fd.get(), &o.st) != 0) return std::unexpected(ErrnoError(errno, rel));
    names.push_back(std::move(comp));
    o.rel = JoinAll(names);
    return o;
  }
  // The path named a folder already on the stack (the root, or via "..").
  Opened o;
  o.fd.reset(::openat(cur(), ".", (flags & ~O_NOFOLLOW) | O_CLOEXEC));
  if (!o.fd.valid()) return std::unexpected(ErrnoError(errno, rel));
  if (::fstat(o.fd.get(), &o.st) != 0) return std::unexpected(ErrnoError(errno, rel));
  o.rel = JoinAll(names);
  return o;
}

Expected<WorkspaceFs::Opened> WorkspaceFs::OpenFile(std::string_view rel, FsAccess access) const {
  // O_NONBLOCK: opening a FIFO planted in the workspace must not hang the call.
  auto o = Resolve(rel, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (!o) return o;
  if (IsDenied(o->rel, access))
    return Fail(ErrorCode::kPermissionDenied, "access denied: " + Display(rel) + " is restricted");
  if (S_ISDIR(o->st.st_mode)) return std::unexpected(ErrnoError(EISDIR, rel));
  if (!S_ISREG(o->st.st_mode))
    return Fail(ErrorCode::kInvalidArgument, "not a regular file: " + Display(rel));
  if (o->st.st_nlink > 1)
    return Fail(ErrorCode::kPermissionDenied, "access denied: " + Display(rel) +
                                                  " is a hardlinked file (" +
                                                  std::to_string(o->st.st_nlink) +
                                                  " links); hardlinks are refused because "
                                                  "they may point outside the workspace");
  return o;
}

Expected<WorkspaceFs::Opened> WorkspaceFs::OpenDir(std::string_view rel) const {
  auto o = Resolve(rel, O_RDONLY | O_DIRECTORY);
  if (!o) return o;
  if (IsDenied(o->rel, FsAccess::kRead))
    return Fail(ErrorCode::kPermissionDenied, "access denied: " + Display(rel) + " is restricted");
  return o;
}

Expected<WorkspaceFs::Opened> WorkspaceFs::Stat(std::string_view rel) const {
  return Resolve(rel, O_PATH);
}

Expected<std::string> WorkspaceFs::ReadFile(std::string_view rel, size_t max_bytes,
                                            FsAccess access) const {
  auto o = OpenFile(rel, access);
  if (!o) return std::unexpected(o.error());
  if (static_cast<size_t>(o->st.st_size) > max_bytes)
    return Fail(ErrorCode::kInvalidArgument, Display(rel) + " is " + std::to_string(o->st.st_size) +
                                                 " bytes, over the " + std::to_string(max_bytes) +
                                                 "-byte limit");
  std::string data(static_cast<size_t>(o->st.st_size), '\0');
  size_t got = 0;
  // The file may grow while we read; read what stat promised plus whatever fits the cap.
  for (;;) {
    if (got == data.size()) {
      if (data.size() > max_bytes) break;
      data.resize(std::max<size_t>(data.size() * 2, 4096));
    }
    ssize_t n = ::read(o->fd.get(), data.data() + got, data.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::unexpected(ErrnoError(errno, rel));
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  if (got > max_bytes)
    return Fail(ErrorCode::kInvalidArgument,
                Display(rel) + " is over the " + std::to_string(max_bytes) + "-byte limit");
  data.resize(got);
  return data;
}

Expected<WorkspaceFs::Opened> WorkspaceFs::OpenParentDir(std::string_view rel, bool create) const {
  auto o = Resolve(rel, O_RDONLY | O_DIRECTORY);
  if (o || !create || o.error().code != ErrorCode::kNotFound) return o;
  std::vector<std::string> comps = Split(rel);
  std::vector<std::string> prefix;
  for (const auto& comp : comps) {
    std::string parent = JoinAll(prefix);
    prefix.push_back(comp);
    std::string here = JoinAll(prefix);
    auto existing = Resolve(here, O_RDONLY | O_DIRECTORY);
    if (existing) continue;
    if (existing.error().code != ErrorCode::kNotFound) return existing;
    auto p = Resolve(parent, O_RDONLY | O_DIRECTORY);
    if (!p) return p;
    if (IsDenied(Join(p->rel, comp), FsAccess::kWrite))
      return Fail(ErrorCode::kPermissionDenied,
                  "access denied: " + Display(here) + " is restricted");
    if (::mkdirat(p->fd.get(), comp.c_str(), 0755) != 0 && errno != EEXIST)
      return std::unexpected(ErrnoError(errno, here));
  }
  return Resolve(rel, O_RDONLY | O_DIRECTORY);
}

Expected<WorkspaceFs::WriteOutcome> WorkspaceFs::WriteFileAtomic(std::string_view rel,
                                                                 std::string_view content,
                                                                 bool create_parents) const {
  if (!opts_.writable)
    return Fail(ErrorCode::kPermissionDenied, "access denied: " + Display(rel) + " is read-only");
  std::string target(rel);
  for (int hop = 0; hop <= kMaxSymlinks; ++hop) {
    if (target.ends_with('/'))
      return Fail(ErrorCode::kInvalidArgument, "path names a folder, not a file: " + target);
    size_t slash = target.rfind('/');
    std::string parent = slash == std::string::npos ? "" : target.substr(0, slash);
    std::string leaf = slash == std::string::npos ? target : target.substr(slash + 1);
    if (leaf.empty() || leaf == "." || leaf == "..")
      return Fail(ErrorCode::kInvalidArgument, "path must name a file: " + Display(rel));
    auto dir = OpenParentDir(parent, create_parents);
    if (!dir) {
      if (dir.error().code == ErrorCode::kNotFound)
        return Fail(ErrorCode::kNotFound, "parent folder does not exist: " + Display(parent));
      return std::unexpected(dir.error());
    }
    std::string full = Join(dir->rel, leaf);
    if (IsDenied(full, FsAccess::kWrite))
      return Fail(ErrorCode::kPermissionDenied,
                  "access denied: " + Display(rel) + " is restricted");

    mode_t mode = 0644;
    bool created = true;
    struct stat st;
    if (::fstatat(dir->fd.get(), leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
      if (S_ISLNK(st.st_mode)) {
        // Renaming over the link would replace the link; write its target instead, re-resolved
        // from the root so that the target is held to the same rules.
        auto resolved = Resolve(full, O_PATH);
        if (resolved) {
          target = resolved->rel;
          continue;
        }
        if (resolved.error().code != ErrorCode::kNotFound) return std::unexpected(resolved.error());
        auto link = ReadLinkAt(dir->fd.get(), leaf.c_str());
        if (!link || link->empty()) return std::unexpected(ErrnoError(ENOENT, rel));
        if (link->front() == '/') {
          auto inside = StripRoot(*link);
          if (!inside) return std::unexpected(EscapeError(Display(rel)));
          target = *inside;
        } else {
          target = Join(dir->rel, *link);
        }
        continue;
      }
      if (S_ISDIR(st.st_mode)) return std::unexpected(ErrnoError(EISDIR, rel));
      if (!S_ISREG(st.st_mode))
        return Fail(ErrorCode::kInvalidArgument, "not a regular file: " + Display(rel));
      if (st.st_nlink > 1)
        return Fail(ErrorCode::kPermissionDenied, "access denied: " + Display(rel) +
                                                      " is a hardlinked file (" +
                                                      std::to_string(st.st_nlink) +
                                                      " links); hardlinks are refused because "
                                                      "they may point outside the workspace");
      mode = st.st_mode & 07777;
      created = false;
    } else if (errno != ENOENT) {
      return std::unexpected(ErrnoError(errno, rel));
    }

    std::string tmp;
    UniqueFd out;
    for (int attempt = 0; attempt < 8 && !out.valid(); ++attempt) {
      tmp = TempName(leaf);
      out.reset(::openat(dir->fd.get(), tmp.c_str(),
                         O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
      if (!out.valid() && errno != EEXIST) return std::unexpected(ErrnoError(errno, rel));
    }
    if (!out.valid()) return std::unexpected(ErrnoError(EEXIST, rel));
    int err = 0;
    if (!WriteAll(out.get(), content)) err = errno;
    // fchmod, not the open mode: the umask must not strip bits the old file had.
    if (!err && ::fchmod(out.get(), mode) != 0) err = errno;
    if (!err && ::fsync(out.get()) != 0) err = errno;
    if (!err) {
      out.reset();
      if (::renameat(dir->fd.get(), tmp.c_str(), dir->fd.get(), leaf.c_str()) != 0) err = errno;
    }
    if (err) {
      ::unlinkat(dir->fd.get(), tmp.c_str(), 0);
      return std::unexpected(ErrnoError(err, rel));
    }
    ::fsync(dir->fd.get());  // the rename is durable once the folder is
    return WriteOutcome{std::move(full), created};
  }
  return std::unexpected(ErrnoError(ELOOP, rel));
}

}  // namespace clawtools
