#!/usr/bin/env bash
# `make bench`: every benchmark, with the same-run yardsticks (perl for the scrubber, ripgrep
# for search). Benchmarks are built in release mode in build-bench/ so debug or sanitizer
# settings of the test build never skew them.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B="$ROOT/build-bench"
cmake -S "$ROOT" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLAWTOOLS_BUILD_TESTS=OFF >/dev/null || exit 1
cmake --build "$B" -j "$(nproc)" || exit 1

MIN_TIME=${BENCH_MIN_TIME:-0.5}
run() {
  local exe="$B/bench/$1"; shift
  if [ -x "$exe" ]; then
    echo; echo "=== $(basename "$exe") ==="
    "$exe" --benchmark_min_time="$MIN_TIME" "$@"
  fi
}

echo "== registry dispatch (no-op tool, full production filter chain vs bare registry) and rate limiter =="
run core_bench
echo; echo "== credential scrubber: MB/s on 1 MB and 50 MB mixed corpora, with and without secrets =="
run scrub_bench
echo; echo "== same 50 MB corpus through perl -pe with the seed's five patterns (yardstick) =="
bash "$ROOT/bench/perl_yardstick.sh" "$B/bench/scrub_bench" 50 1
bash "$ROOT/bench/perl_yardstick.sh" "$B/bench/scrub_bench" 50 0
echo; echo "== policy evaluation (60 tools, layered config) =="
run policy_bench
echo; echo "== filesystem tools =="
run fs_bench
[ -x "$B/bench/fs_search" ] && RUNS=${RUNS:-3} bash "$ROOT/bench/search_vs_rg.sh" "$B"
echo; echo "== command analysis and sandbox start-up =="
for extra in execpolicy_bench sandbox_bench; do run "$extra"; done
echo; echo "== MCP: 1,000 sequential echo calls, official TypeScript SDK vs clawtools, stdio and HTTP =="
if [ -d "$ROOT/tests/mcp/npm/node_modules/@modelcontextprotocol/sdk" ]; then
  bash "$ROOT/bench/mcp_bench.sh" "$B"
else
  echo "(skipped: run scripts/install-npm.sh for the SDK yardstick)"
fi
exit 0
