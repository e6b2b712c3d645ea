#include "sandbox/native_backend.h"

#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sandbox/environment.h"
#include "sandbox/landlock.h"
#include "sandbox/seccomp_filter.h"

namespace clawtools::sandbox {
namespace {

// Where a root gateway stages the workspace and the helper, in the child's private mount
// namespace (a tmpfs mounted over /tmp there; the host's /tmp is untouched).
constexpr const char* kStage = "/tmp";
constexpr const char* kStageWs = "/tmp/ws";
constexpr const char* kStageInit = "/tmp/init";
constexpr const char* kInitInside = "/.sandbox-init";

// A user namespace whose only mapping is `outside_id` -> inside 0 -> ... used as the idmap of
// the staged workspace: on-disk owner `disk_uid` appears as kuid `uid`.
UniqueFd MakeIdmapUserns(uid_t disk_uid, gid_t disk_gid, uid_t uid, gid_t gid) {
  int sync[2];
  if (::pipe2(sync, O_CLOEXEC) != 0) return UniqueFd();
  UniqueFd rd(sync[0]), wr(sync[1]);
  // clone(CLONE_NEWUSER) rather than fork + unshare: unshare(CLONE_NEWUSER) is refused in a
  // multi-threaded process, and sanitizer runtimes start threads in forked children.
  pid_t pid = static_cast<pid_t>(
      ::syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, nullptr, nullptr, nullptr, nullptr));
  if (pid < 0) return UniqueFd();
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    char ok = 'y';
    (void)!::write(wr.get(), &ok, 1);
    ::pause();
    ::_exit(0);
  }
  wr.reset();
  char ok = 0;
  UniqueFd ns;
  if (::read(rd.get(), &ok, 1) == 1 && ok == 'y') {
    auto write_map = [&](const char* file, unsigned inside, unsigned outside) {
      std::string path = "/proc/" + std::to_string(pid) + "/" + file;
      std::string line = std::to_string(inside) + " " + std::to_string(outside) + " 1\n";
      UniqueFd f(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
      return f.valid() &&
             ::write(f.get(), line.data(), line.size()) == static_cast<ssize_t>(line.size());
    };
    if (write_map("uid_map", disk_uid, uid) && write_map("gid_map", disk_gid, gid))
      ns.reset(::open(("/proc/" + std::to_string(pid) + "/ns/user").c_str(), O_RDONLY | O_CLOEXEC));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return ns;
}

// The top-level directories bwrap recreates: merged-/usr systems have them as symlinks.
void AddSystemDirs(std::vector<std::string>& a) {
  a.insert(a.end(), {"--ro-bind", "/usr", "/usr"});
  for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    struct stat st;
    if (::lstat(top, &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      char target[256];
      ssize_t n = ::readlink(top, target, sizeof(target) - 1);
      if (n <= 0) continue;
      a.insert(a.end(), {"--symlink", std::string(target, static_cast<size_t>(n)), top});
    } else if (S_ISDIR(st.st_mode)) {
      a.insert(a.end(), {"--ro-bind", top, top});
    }
  }
  a.insert(a.end(), {"--ro-bind", "/etc", "/etc"});
}

// Hides a host path that is visible at `inside`: a directory becomes an empty tmpfs, anything
// else /dev/null.
void Hide(std::vector<std::string>& a, const std::string& host, const std::string& inside) {
  struct stat st;
  if (::lstat(host.c_str(), &st) != 0) return;
  if (S_ISDIR(st.st_mode))
    a.insert(a.end(), {"--tmpfs", inside});
  else if (S_ISREG(st.st_mode))
    a.insert(a.end(), {"--ro-bind", "/dev/null", inside});
}

void HideEtcSecrets(std::vector<std::string>& a) {
  for (const char* f : {"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
                        "/etc/sudoers", "/etc/security/opasswd", "/etc/ssl/private"})
    Hide(a, f, f);
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/etc/ssh", ec)) {
    std::string name = e.path().filename().string();
    if (name.starts_with("ssh_host_") && name.ends_with("_key"))
      Hide(a, e.path().string(), e.path().string());
  }
}

bool SafeRelative(std::string_view rel) {
  if (rel.starts_with('/')) return false;
  size_t pos = 0;
  while (pos <= rel.size()) {
    size_t end = rel.find('/', pos);
    if (end == std::string_view::npos) end = rel.size();
    if (rel.substr(pos, end - pos) == "..") return false;
    pos = end + 1;
  }
  return rel.find('\0') == std::string_view::npos;
}

}  // namespace

Expected<std::unique_ptr<NativeBackend>> NativeBackend::Create(NativeOptions opts) {
  if (::access(opts.bwrap.c_str(), X_OK) != 0)
    return Fail(ErrorCode::kUnavailable, "bubblewrap not found at " + opts.bwrap);
  if (opts.init_helper.empty() || ::access(opts.init_helper.c_str(), X_OK) != 0)
    return Fail(ErrorCode::kUnavailable,
                "sandbox init helper not found at '" + opts.init_helper + "'");
  std::unique_ptr<NativeBackend> b(new NativeBackend(std::move(opts)));
  auto bpf = SeccompProgram();
  if (!bpf) return std::unexpected(bpf.error());
  b->seccomp_bpf_ = std::move(*bpf);
  b->landlock_abi_ = LandlockAbi();
  b->as_root_ = ::geteuid() == 0;
  if (b->as_root_)
    b->idmap_userns_ = MakeIdmapUserns(::geteuid(), ::getegid(), b->opts_.uid, b->opts_.gid);
  return b;
}

std::string NativeBackend::Describe(const Policy& p, bool idmapped) const {
  std::string d = "native (bwrap, uid 65534";
  if (landlock_abi_ > 0) d += ", landlock v" + std::to_string(landlock_abi_);
  d += ", seccomp";
  d += p.network_enabled ? ", network" : ", no network";
  if (p.workspace_access != WorkspaceAccess::kReadWrite)
    d += std::string(", workspace ") + AccessName(p.workspace_access);
  else if (as_root_ && !idmapped)
    d += ", workspace not idmapped";
  return d + ")";
}

Expected<Launched> NativeBackend::Start(const LaunchRequest& req) const {
  const Policy& p = req.policy;
  if (!SafeRelative(req.cwd_rel))
    return Fail(ErrorCode::kInvalidArgument, "working_dir escapes the workspace");
  const bool mount_ws = p.workspace_access != WorkspaceAccess::kNone;
  if (!mount_ws && !req.cwd_rel.empty())
    return Fail(ErrorCode::kInvalidArgument,
                "working_dir needs workspace access (sandbox workspace_access is none)");

  UniqueFd seccomp(::memfd_create("clawtools-seccomp", MFD_CLOEXEC));
  if (!seccomp.valid() || ::write(seccomp.get(), seccomp_bpf_.data(), seccomp_bpf_.size()) !=
                              static_cast<ssize_t>(seccomp_bpf_.size()))
    return Fail(ErrorCode::kUnavailable, "cannot write the seccomp filter");
  ::lseek(seccomp.get(), 0, SEEK_SET);

  UniqueFd ws;
  if (mount_ws) {
    ws.reset(::open(req.workspace.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!ws.valid()) return Fail(ErrorCode::kNotFound, "workspace not found", req.workspace);
  }

  // As root: the staged mounts (see the header). They are cloned here as detached mounts
  // (a bind from an fd of the old mount namespace would be refused after unshare), and the
  // workspace clone is idmapped here, so we know whether the filesystem accepted it.
  UniqueFd helper_tree, ws_tree;
  bool idmapped = false;
  std::string ws_src = req.workspace, init_src = opts_.init_helper;
  if (as_root_) {
    constexpr unsigned kClone = OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC;
    helper_tree.reset(::open_tree(AT_FDCWD, opts_.init_helper.c_str(), kClone));
    if (!helper_tree.valid())
      return Fail(ErrorCode::kUnavailable, "cannot stage the sandbox init helper");
    if (mount_ws) {
      ws_tree.reset(::open_tree(ws.get(), "", kClone | AT_EMPTY_PATH | AT_RECURSIVE));
      if (!ws_tree.valid()) return Fail(ErrorCode::kUnavailable, "cannot stage the workspace");
      mount_attr attr{};
      attr.attr_set = MOUNT_ATTR_IDMAP;
      attr.userns_fd = static_cast<uint64_t>(idmap_userns_.get());
      idmapped =
          idmap_userns_.valid() && ::mount_setattr(ws_tree.get(), "", AT_EMPTY_PATH | AT_RECURSIVE,
                                                   &attr, sizeof(attr)) == 0;
    }
    ws_src = kStageWs;
    init_src = kStageInit;
  }

  std::vector<std::string> a = {opts_.bwrap, "--unshare-all"};
  if (p.network_enabled) a.push_back("--share-net");
  a.insert(a.end(), {"--die-with-parent", "--uid", "65534", "--gid", "65534", "--hostname",
                     "sandbox", "--cap-drop", "ALL"});
  AddSystemDirs(a);
  HideEtcSecrets(a);
  a.insert(a.end(),
           {"--proc", "/proc", "--dev", "/dev", "--size",
            std::to_string(static_cast<uint64_t>(opts_.tmp_size_mb) << 20), "--tmpfs", "/tmp"});
  // bwrap's /dev is an unbounded tmpfs: cap /dev/shm too, or it is a way to fill memory.
  a.insert(a.end(), {"--size", std::to_string(static_cast<uint64_t>(opts_.tmp_size_mb) << 20),
                     "--tmpfs", "/dev/shm"});
  if (p.workspace_access == WorkspaceAccess::kReadWrite)
    a.insert(a.end(), {"--bind", ws_src, "/workspace"});
  else if (p.workspace_access == WorkspaceAccess::kReadOnly)
    a.insert(a.end(), {"--ro-bind", ws_src, "/workspace"});
  else
    a.insert(a.end(), {"--dir", "/workspace"});
  for (const auto& h : opts_.hide_paths) {
    if (h.starts_with("/etc/") || h.starts_with("/usr/"))
      Hide(a, h, h);
    else if (mount_ws && h.starts_with(req.workspace + "/"))
      Hide(a, h, "/workspace" + h.substr(req.workspace.size()));
  }
  a.insert(a.end(), {"--ro-bind", init_src, kInitInside});
  a.insert(a.end(), {"--chdir", req.cwd_rel.empty() ? "/workspace" : "/workspace/" + req.cwd_rel});
  a.insert(a.end(), {"--seccomp", std::to_string(seccomp.get()), "--", kInitInside});
  a.insert(a.end(),
           {"--landlock-abi", std::to_string(landlock_abi_), "--rw", "/tmp", "--rw", "/dev"});
  if (p.workspace_access == WorkspaceAccess::kReadWrite) a.insert(a.end(), {"--rw", "/workspace"});
  if (p.memory_mb > 0)
    a.insert(a.end(), {"--as", std::to_string(static_cast<uint64_t>(p.memory_mb) << 20)});
  a.insert(a.end(), {"--nproc", std::to_string(p.pids_limit), "--fsize",
                     std::to_string(static_cast<uint64_t>(opts_.file_size_mb) << 20), "--cpu",
                     std::to_string(p.timeout_sec + 5), "--nofile", std::to_string(opts_.nofile),
                     "--", opts_.shell, "-c", req.command});

  SpawnSpec spec{.argv = std::move(a),
                 .env = SandboxEnvironment(p.env),
                 .cwd = "/",
                 .inherit_fds = {seccomp.get()}};
  if (as_root_) {
    for (const UniqueFd* fd : {&ws_tree, &helper_tree})
      if (fd->valid()) spec.setup_fds.push_back(fd->get());
    const int ws_fd = ws_tree.get();
    const int helper_fd = helper_tree.get();
    const uid_t uid = opts_.uid;
    const gid_t gid = opts_.gid;
    spec.pre_exec = [=](const char** what) -> int {
      *what = "private mount namespace";
      if (::unshare(CLONE_NEWNS) != 0 ||
          ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return errno;
      *what = "stage tmpfs";
      if (::mount("clawtools-stage", kStage, "tmpfs", MS_NOSUID | MS_NODEV, "size=16k,mode=0755") !=
          0)
        return errno;
      if (::mkdir(kStageWs, 0755) != 0) return errno;
      int f = ::open(kStageInit, O_CREAT | O_WRONLY | O_CLOEXEC, 0755);
      if (f < 0) return errno;
      ::close(f);
      *what = "stage workspace";
      if (ws_fd >= 0 && ::move_mount(ws_fd, "", AT_FDCWD, kStageWs, MOVE_MOUNT_F_EMPTY_PATH) != 0)
        return errno;
      *what = "stage init helper";
      if (::move_mount(helper_fd, "", AT_FDCWD, kStageInit, MOVE_MOUNT_F_EMPTY_PATH) != 0)
        return errno;
      *what = "drop privileges";
      if (::setgroups(0, nullptr) != 0 || ::setresgid(gid, gid, gid) != 0 ||
          ::setresuid(uid, uid, uid) != 0)
        return errno;
      return 0;
    };
  }
  auto proc = Process::Spawn(spec);
  if (!proc) return std::unexpected(proc.error());
  return Launched{std::move(*proc), "sandbox: " + Describe(p, idmapped), nullptr};
}

}  // namespace clawtools::sandbox
