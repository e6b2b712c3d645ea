#include <gtest/gtest.h>

#include <algorithm>

#include "sandbox/docker_backend.h"
#include "sandbox/run.h"

namespace clawtools::sandbox {
namespace {

bool Contains(const std::vector<std::string>& v, std::initializer_list<std::string> seq) {
  return std::search(v.begin(), v.end(), seq.begin(), seq.end()) != v.end();
}

TEST(DockerArgs, UniqueSanitizedNames) {
  auto a = DockerBackend::ContainerName("agent:coder:telegram/123 x");
  auto b = DockerBackend::ContainerName("agent:coder:telegram/123 x");
  EXPECT_NE(a, b);
  EXPECT_TRUE(a.starts_with("clawtools-sbx-agent-coder-telegram-123-x-")) << a;
  EXPECT_EQ(DockerBackend::ContainerName(std::string(200, 'k')).size(),
            std::string("clawtools-sbx-").size() + 40 + 9);
}

TEST(DockerArgs, GoClawHardenedFlags) {
  LaunchRequest req{
      .command = "make test", .workspace = "/srv/ws", .cwd_rel = "src", .session_key = "k"};
  req.policy.workspace_access = WorkspaceAccess::kReadOnly;
  req.policy.env = {{"A", "1"}};
  auto args = DockerBackend::RunArgs({}, req, "n");
  for (auto seq : {std::initializer_list<std::string>{"run", "--rm", "-i", "--name", "n"},
                   {"--network", "none"},
                   {"--cap-drop", "ALL"},
                   {"--security-opt", "no-new-privileges"},
                   {"--read-only"},
                   {"--pids-limit", "256"},
                   {"--memory", "512m"},
                   {"--cpus", "1.00"},
                   {"--user", "65534:65534"},
                   {"-v", "/srv/ws:/workspace:ro"},
                   {"-w", "/workspace/src"},
                   {"-e", "A"},
                   {"debian:bookworm-slim", "sh", "-c", "make test"}})
    EXPECT_TRUE(Contains(args, seq)) << *seq.begin();
  req.policy.network_enabled = true;
  req.policy.workspace_access = WorkspaceAccess::kNone;
  req.policy.env = {{"API_TOKEN", "tok-123"}, {"DOCKER_HOST", "tcp://evil:2375"}};
  // Values stay off the world-readable command line; the client's environment carries them,
  // except names the client itself reads, which must not redirect it.
  args = DockerBackend::RunArgs({}, req, "n");
  EXPECT_TRUE(Contains(args, {"-e", "API_TOKEN"}));
  EXPECT_TRUE(Contains(args, {"-e", "DOCKER_HOST=tcp://evil:2375"}));
  for (const auto& a : args) EXPECT_EQ(a.find("tok-123"), std::string::npos) << a;
  auto env = DockerBackend::ClientEnvironment(req);
  EXPECT_TRUE(std::ranges::count(env, "API_TOKEN=tok-123"));
  EXPECT_FALSE(std::ranges::count(env, "DOCKER_HOST=tcp://evil:2375"));
  EXPECT_TRUE(std::ranges::count(env, "PATH=/usr/local/bin:/usr/bin:/bin"));
  EXPECT_EQ(
      std::ranges::count_if(env, [](const std::string& kv) { return kv.starts_with("PATH="); }), 1);
  args = DockerBackend::RunArgs({}, req, "n");
  EXPECT_TRUE(Contains(args, {"--network", "bridge"}));
  EXPECT_FALSE(Contains(args, {"-v"}));
}

TEST(DockerBackend, RunsWhenAnEngineAnswers) {
  auto d = DockerBackend::Create({}, std::chrono::seconds(3));
  if (!d) GTEST_SKIP() << "no docker engine: " << d.error().log_message();
  LaunchRequest req{.command = "id -u; echo ok", .workspace = "/tmp", .session_key = "docker-test"};
  req.policy.workspace_access = WorkspaceAccess::kReadOnly;
  auto l = (*d)->Start(req);
  ASSERT_TRUE(l.has_value());
  RunOutcome out = RunToCompletion(
      l->process, {.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120)});
  if (out.status.code == 125) GTEST_SKIP() << "image unavailable: " << out.head;
  EXPECT_EQ(out.head, "65534\nok\n");
}

}  // namespace
}  // namespace clawtools::sandbox
