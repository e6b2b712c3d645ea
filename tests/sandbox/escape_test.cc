// Escape attempts: every test runs a hostile command in the native sandbox and checks, from
// the host, that nothing got out.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>

#include <thread>

#include "sandbox_fixture.h"

namespace clawtools::sandbox {
namespace {

using namespace std::chrono_literals;

bool Exists(const std::string& p) {
  return ::access(p.c_str(), F_OK) == 0;
}

TEST_F(SandboxTest, SelfTestReportsWhatItMeasured) {
  const auto& c = sandbox_->capabilities().native;
  EXPECT_EQ(c.uid_inside, 65534);
  EXPECT_TRUE(c.seccomp);
  EXPECT_EQ(c.landlock_enforced, c.landlock_abi > 0);
  EXPECT_TRUE(c.pid_namespace);
  EXPECT_TRUE(c.network_isolated);
  EXPECT_EQ(c.drops_root, ::geteuid() == 0);
}

TEST_F(SandboxTest, RunsUnprivilegedInTheWorkspaceAndSaysWhere) {
  Ran r = Run("id -u; id -g; pwd; echo $HOME; grep CapEff /proc/self/status");
  EXPECT_EQ(r.code(), 0) << r.text();
  EXPECT_TRUE(
      r.text().starts_with("65534\n65534\n/workspace\n/workspace\nCapEff:\t0000000000000000"))
      << r.text();
  EXPECT_TRUE(r.where.starts_with("sandbox: native (bwrap, uid 65534")) << r.where;
  EXPECT_NE(r.where.find("no network"), std::string::npos);
}

TEST_F(SandboxTest, WorkspaceWritesLandOnTheHost) {
  Ran r = Run("mkdir -p sub && echo hello > sub/a.txt && cat sub/a.txt");
  EXPECT_EQ(r.code(), 0) << r.text();
  std::ifstream f(ws_ + "/sub/a.txt");
  std::string s;
  std::getline(f, s);
  EXPECT_EQ(s, "hello");
}

TEST_F(SandboxTest, CannotWriteOutsideTheWorkspace) {
  std::string parent = std::filesystem::path(ws_).parent_path();
  std::string marker = "clawtools-escape-" + std::to_string(::getpid());
  Ran r = Run(
      "for p in /etc /usr /usr/local/bin / /var /proc/sys/kernel /workspace/.. /dev/shm/../..; do "
      "echo pwned > $p/" +
      marker + " 2>/dev/null && echo WROTE:$p; done; echo done");
  EXPECT_EQ(r.text().find("WROTE"), std::string::npos) << r.text();
  EXPECT_TRUE(r.text().ends_with("done\n"));
  for (const std::string& dir :
       {std::string("/etc"), std::string("/usr"), std::string("/usr/local/bin"), parent})
    EXPECT_FALSE(Exists(dir + "/" + marker)) << dir;
}

TEST_F(SandboxTest, CannotReadHostSecrets) {
  std::string secret = "/root/clawtools-escape-secret-" + std::to_string(::getpid());
  if (::geteuid() == 0) std::ofstream(secret) << "TOPSECRET";
  Ran r = Run("cat /etc/shadow /etc/gshadow; ls /root /home /var/lib 2>&1; cat " + secret +
              " 2>&1; grep -rs TOPSECRET /etc /tmp /workspace / --exclude-dir=usr "
              "--exclude-dir=proc --exclude-dir=sys | head -3; echo end");
  EXPECT_EQ(r.text().find("root:"), std::string::npos) << r.text();
  EXPECT_EQ(r.text().find("TOPSECRET"), std::string::npos) << r.text();
  EXPECT_NE(r.text().find("No such file"), std::string::npos) << r.text();
  ::unlink(secret.c_str());
}

class Listener {
 public:
  Listener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a));
    ::listen(fd_, 8);
    socklen_t len = sizeof(a);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
  }
  ~Listener() { ::close(fd_); }
  int port() const { return port_; }
  bool Accepted() {
    int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) return false;
    ::close(c);
    return true;
  }

 private:
  int fd_;
  int port_;
};

TEST_F(SandboxTest, NoNetworkUnlessThePolicyAllowsIt) {
  Listener l;
  std::string cmd =
      "bash -c 'echo hi > /dev/tcp/127.0.0.1/" + std::to_string(l.port()) + "' && echo CONNECTED";
  Ran off = Run(cmd);
  EXPECT_EQ(off.text().find("CONNECTED"), std::string::npos) << off.text();
  EXPECT_FALSE(l.Accepted());
  Ran ifaces = Run("cat /proc/net/dev | grep : | cut -d: -f1 | tr -d ' '");
  EXPECT_EQ(ifaces.text(), "lo\n");

  policy_.network_enabled = true;
  Ran on = Run(cmd);
  EXPECT_NE(on.text().find("CONNECTED"), std::string::npos) << on.text();
  EXPECT_TRUE(l.Accepted());
  EXPECT_NE(on.where.find(", network"), std::string::npos);
}

TEST_F(SandboxTest, CannotKillHostProcesses) {
  auto victim = Process::Spawn({.argv = {"/bin/sleep", "100"}});
  ASSERT_TRUE(victim.has_value());
  pid_t pid = victim->pid();
  Ran r = Run("kill -9 " + std::to_string(pid) + " 2>&1; kill -9 -1; echo after");
  EXPECT_EQ(::kill(pid, 0), 0) << "host process was killed";
  EXPECT_FALSE(victim->TryWait().has_value());
}

TEST_F(SandboxTest, ForkBombIsContained) {
  policy_.pids_limit = 64;
  auto start = std::chrono::steady_clock::now();
  Ran r = Run("f() { f | f & }; f; sleep 2; echo survived", 15s);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 20s);
  // The host can still fork, and the sandbox's processes are gone with it.
  auto p = Process::Spawn({.argv = {"/bin/true"}});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(RunToCompletion(*p, {}).status.code, 0);
}

TEST_F(SandboxTest, DiskFillStopsAtFileSizeAndTmpfsLimits) {
  Ran big = Run("dd if=/dev/zero of=/workspace/big bs=1M count=100 2>&1; echo rc=$?");
  std::error_code ec;
  EXPECT_LE(std::filesystem::file_size(ws_ + "/big", ec), 8u << 20);
  EXPECT_EQ(big.text().find("rc=0"), std::string::npos) << big.text();

  Ran tmp =
      Run("for i in 1 2 3; do dd if=/dev/zero of=/tmp/f$i bs=1M count=7 2>&1 | grep -o 'No space "
          "left'; done; du -sm /tmp");
  EXPECT_NE(tmp.text().find("No space left"), std::string::npos) << tmp.text();

  Ran shm =
      Run("for i in 1 2 3; do dd if=/dev/zero of=/dev/shm/f$i bs=1M count=7 2>&1 | grep -o 'No "
          "space left'; "
          "done; touch /dev/evil 2>&1");
  EXPECT_NE(shm.text().find("No space left"), std::string::npos) << shm.text();
}

TEST_F(SandboxTest, KernelAttackSurfaceIsFiltered) {
  Ran r =
      Run("unshare -U true 2>/dev/null && echo UNSHARE; mount -t tmpfs x /tmp 2>/dev/null && echo "
          "MOUNT; "
          "grep -E '^(Seccomp|NoNewPrivs):' /proc/self/status");
  EXPECT_EQ(r.text().find("UNSHARE"), std::string::npos) << r.text();
  EXPECT_EQ(r.text().find("MOUNT"), std::string::npos) << r.text();
  EXPECT_NE(r.text().find("NoNewPrivs:\t1"), std::string::npos) << r.text();
  EXPECT_NE(r.text().find("Seccomp:\t2"), std::string::npos) << r.text();
}

TEST_F(SandboxTest, GatewayEnvironmentDoesNotReachTheSandbox) {
  ::setenv("OPENAI_API_KEY", "sk-sandbox-leak-test", 1);
  policy_.env = {{"CONFIGURED", "yes"}};
  Ran r = Run("env");
  ::unsetenv("OPENAI_API_KEY");
  EXPECT_EQ(r.text().find("sk-sandbox-leak-test"), std::string::npos);
  EXPECT_NE(r.text().find("CONFIGURED=yes"), std::string::npos);
}

TEST_F(SandboxTest, ReadOnlyAndNoWorkspaceAccess) {
  std::ofstream(ws_ + "/f.txt") << "data";
  policy_.workspace_access = WorkspaceAccess::kReadOnly;
  Ran ro = Run("cat f.txt; echo x > f.txt || echo DENIED");
  EXPECT_EQ(ro.text().substr(0, 4), "data");
  EXPECT_NE(ro.text().find("DENIED"), std::string::npos);
  EXPECT_NE(ro.where.find("workspace ro"), std::string::npos);

  policy_.workspace_access = WorkspaceAccess::kNone;
  Ran none = Run("ls -A /workspace | wc -l");
  EXPECT_EQ(none.text(), "0\n");
}

TEST_F(SandboxTest, ConfiguredHidePathsAreEmptyInside) {
  std::filesystem::create_directories(ws_ + "/conf");
  std::ofstream(ws_ + "/store.db") << "SECRET-ROWS";
  std::ofstream(ws_ + "/conf/gateway.json") << "SECRET-CONFIG";
  SandboxOptions o;
  o.native.init_helper = CLAWTOOLS_SANDBOX_INIT_BUILD_PATH;
  o.native.hide_paths = {ws_ + "/store.db", ws_ + "/conf"};
  o.probe_docker = false;
  auto hiding = Sandbox::Create(std::move(o));
  ASSERT_TRUE(hiding->available(BackendKind::kNative));
  auto l = hiding->Start({.command = "cat store.db conf/gateway.json 2>&1; ls conf | wc -l",
                          .workspace = ws_,
                          .policy = policy_});
  ASSERT_TRUE(l.has_value());
  RunOutcome out =
      RunToCompletion(l->process, {.deadline = std::chrono::steady_clock::now() + 20s});
  EXPECT_EQ(out.head.find("SECRET"), std::string::npos) << out.head;
  EXPECT_TRUE(out.head.ends_with("0\n")) << out.head;
}

TEST_F(SandboxTest, EveryProcessDiesWithTheCommand) {
  Ran r = Run("sleep 300 & echo started");
  EXPECT_EQ(r.text(), "started\n");
  // No uid-65534 sleep 300 survives on the host.
  std::this_thread::sleep_for(100ms);
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    std::ifstream cmd(e.path() / "cmdline");
    std::string c;
    std::getline(cmd, c, '\0');
    std::string arg;
    std::getline(cmd, arg, '\0');
    if (c == "sleep" && arg == "300") {
      struct stat st;
      if (::stat(e.path().c_str(), &st) == 0) {
        EXPECT_NE(st.st_uid, 65534u) << "a sandboxed sleep survived";
      }
    }
  }
}

}  // namespace
}  // namespace clawtools::sandbox
