#!/usr/bin/env bash
# Runs the whole suite: starts a throwaway PostgreSQL for the store tests, runs ctest, stops
# the server. ctest's summary is the last line printed (CI reads it).
set -uo pipefail
BUILD_DIR=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

PG_URL=$(bash "$ROOT/scripts/pg-test-server.sh" start) || { echo "run-tests: could not start PostgreSQL" >&2; exit 1; }
export CLAWTOOLS_TEST_PG_URL="$PG_URL"
trap 'bash "$ROOT/scripts/pg-test-server.sh" stop >/dev/null 2>&1; rm -rf "${CLAWTOOLS_HOME:-/nonexistent}"' EXIT

export CLAWTOOLS_BIN="$ROOT/$BUILD_DIR/clawtools"
# No test may touch the user's ~/.clawtools (its store may hold another schema version).
CLAWTOOLS_HOME=$(mktemp -d /tmp/clawtools-test-home.XXXXXX)
export CLAWTOOLS_HOME
# TSan needs a smaller address-space randomisation on recent kernels.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"

cd "$ROOT/$BUILD_DIR" || exit 1
ctest --output-on-failure -j "$(nproc)" --timeout 600 > ctest.log 2>&1
rc=$?
# Failures with their output first, the summary line last.
grep -v -E '^[0-9]+% tests passed' ctest.log | tail -n 200
grep -E '^[0-9]+% tests passed' ctest.log | tail -n 1
exit $rc
