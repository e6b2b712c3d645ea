// What the sandbox costs per command: spawn-to-reap of `/bin/sh -c true` on the host (scrubbed
// env, own process group) versus in the native sandbox (staging, bwrap namespaces, seccomp,
// Landlock, rlimits), measured in the same run.
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>

#include "sandbox/run.h"
#include "sandbox/sandbox.h"

namespace clawtools::sandbox {
namespace {

void BM_HostTrue(benchmark::State& state) {
  for (auto _ : state) {
    auto p = Process::Spawn(
        {.argv = {"/bin/sh", "-c", "true"}, .env = {"PATH=/usr/bin:/bin"}, .cwd = "/tmp"});
    if (!p) {
      state.SkipWithError(p.error().for_model.c_str());
      return;
    }
    RunOutcome out = RunToCompletion(*p, {});
    benchmark::DoNotOptimize(out.status.code);
  }
}
BENCHMARK(BM_HostTrue)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_NativeSandboxTrue(benchmark::State& state) {
  static auto sandbox = [] {
    SandboxOptions o;
    o.native.init_helper = CLAWTOOLS_SANDBOX_INIT_BUILD_PATH;
    o.probe_docker = false;
    return Sandbox::Create(std::move(o));
  }();
  if (!sandbox->available(BackendKind::kNative)) {
    state.SkipWithError(
        ("native sandbox unavailable: " + sandbox->capabilities().native.error).c_str());
    return;
  }
  char dir[] = "/tmp/clawtools-bench-XXXXXX";
  if (!::mkdtemp(dir)) return;
  ::chmod(dir, 0755);
  LaunchRequest req{.command = "true", .workspace = dir, .session_key = "bench"};
  req.policy.mode = Mode::kAll;
  for (auto _ : state) {
    auto l = sandbox->Start(req);
    if (!l) {
      state.SkipWithError(l.error().log_message().c_str());
      break;
    }
    RunOutcome out = RunToCompletion(l->process, {});
    if (out.status.code != 0) {
      state.SkipWithError(out.head.c_str());
      break;
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
BENCHMARK(BM_NativeSandboxTrue)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace clawtools::sandbox

BENCHMARK_MAIN();
