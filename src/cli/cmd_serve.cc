#include <condition_variable>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli/commands.h"
#include "cli/runtime_flags.h"
#include "gateway/gateway.h"

namespace clawtools::cli {

int RunServe(const ServeFlags& flags) {
  auto runtime = MakeRuntime(flags.common, LogLevel::kInfo);
  if (!runtime) {
    std::cerr << "clawtools serve: " << runtime.error().log_message() << "\n";
    return kExitFailure;
  }
  GatewayOptions opts;
  opts.listen = flags.listen.empty() ? (*runtime)->config().gateway_listen() : flags.listen;
  opts.port_file = flags.port_file;
  const Json& gw = (*runtime)->config().root().value("gateway", Json::object());
  opts.max_body_bytes = gw.value("max_body_bytes", opts.max_body_bytes);
  opts.io_threads = gw.value("io_threads", opts.io_threads);
  opts.worker_threads = gw.value("worker_threads", opts.worker_threads);
  // Policies edited in the store by another process (CLI, another gateway) apply within
  // this period, without a restart.
  Runtime& rt = **runtime;
  rt.ListenForCustomToolChanges();
  std::jthread reloader([&rt](std::stop_token stop) {
    std::mutex mu;
    std::condition_variable_any cv;
    std::unique_lock lock(mu);
    // wait_for returns the predicate's value, also when stop is requested: test stop itself.
    while (!stop.stop_requested()) {
      cv.wait_for(lock, stop, std::chrono::seconds(2), [] { return false; });
      if (!stop.stop_requested()) rt.ReloadAgentPolicies();
    }
  });
  return RunGateway(rt, opts);
}

}  // namespace clawtools::cli
