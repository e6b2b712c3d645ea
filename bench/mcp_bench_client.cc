// clawtools' MCP client side of bench/mcp_bench.sh: connects with McpClient to a stdio command
// (`stdio CMD ARGS...`) or a streamable HTTP URL (`http URL`), makes BENCH_CALLS (default 1000)
// sequential echo calls after 50 warm-up calls, and prints the same JSON line as
// mcp_sdk_client.mjs: {"calls", "calls_per_s", "p50_us", "p99_us"}.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "mcp/client.h"
#include "mcp/server_config.h"

int main(int argc, char** argv) {
  using namespace clawtools;
  using Clock = std::chrono::steady_clock;
  if (argc < 3) {
    std::cerr << "usage: mcp_bench_client stdio CMD ARGS... | http URL\n";
    return 2;
  }
  mcp::McpServerConfig c;
  c.name = "bench";
  if (std::string(argv[1]) == "stdio") {
    c.transport = mcp::TransportKind::kStdio;
    c.command = argv[2];
    for (int i = 3; i < argc; ++i) c.args.push_back(argv[i]);
  } else {
    c.transport = mcp::TransportKind::kStreamableHttp;
    c.url = argv[2];
  }
  auto t = mcp::MakeTransport(c, nullptr, std::chrono::seconds(30));
  if (!t) return std::cerr << t.error().log_message() << "\n", 1;
  auto client = mcp::McpClient::Connect(std::move(*t), {});
  if (!client) return std::cerr << client.error().log_message() << "\n", 1;
  const char* env = std::getenv("BENCH_CALLS");
  int n = env ? std::atoi(env) : 1000;
  auto call = [&](const std::string& text) {
    auto r = (*client)->CallTool("echo", {{"text", text}}, {});
    if (!r || (*r)["content"][0]["text"] != text) {
      std::cerr << "bad echo: " << (r ? r->dump() : r.error().log_message()) << "\n";
      std::exit(1);
    }
  };
  for (int i = 0; i < 50; ++i) call("warm");
  std::vector<double> lat;
  lat.reserve(n);
  auto t0 = Clock::now();
  for (int i = 0; i < n; ++i) {
    auto s = Clock::now();
    call("hello " + std::to_string(i));
    lat.push_back(std::chrono::duration<double, std::micro>(Clock::now() - s).count());
  }
  double total = std::chrono::duration<double>(Clock::now() - t0).count();
  std::ranges::sort(lat);
  auto pct = [&](double p) {
    return lat[std::min(lat.size() - 1, static_cast<size_t>(p * lat.size()))];
  };
  std::cout << Json{{"calls", n},
                    {"calls_per_s", n / total},
                    {"p50_us", pct(0.5)},
                    {"p99_us", pct(0.99)}}
                   .dump()
            << "\n";
  (*client)->Close();
  return 0;
}
