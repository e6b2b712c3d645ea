#!/usr/bin/env bash
# Times our search tool (fs_search) and ripgrep side by side on the same generated tree
# (20k files, ~230 MB, deterministic) and prints the ratio per pattern. Also glob vs find.
# Usage: bench/search_vs_rg.sh [BUILD_DIR] [TREE_DIR]
#   BUILD_DIR defaults to build-fs; build first: ninja -C BUILD_DIR fs_search
set -euo pipefail
BUILD=${1:-$(dirname "$0")/../build-fs}
TREE=${2:-/tmp/clawtools-fs-tree}
FS_SEARCH=$BUILD/bench/fs_search
[ -x "$FS_SEARCH" ] || FS_SEARCH=$(find "$BUILD" -name fs_search -type f -perm -u+x | head -1)
[ -x "$FS_SEARCH" ] || { echo "fs_search not built in $BUILD" >&2; exit 1; }
command -v rg >/dev/null || { echo "rg not installed" >&2; exit 1; }
"$FS_SEARCH" --generate "$TREE"
RUNS=${RUNS:-5}

# Median wall time in ms of RUNS runs (after one warm-up run).
time_ms() {
  "$@" >/dev/null 2>&1 || true
  local times=()
  for _ in $(seq "$RUNS"); do
    local s e
    s=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    e=$(date +%s%N)
    times+=($(((e - s) / 1000000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}

compare() {  # label, rg args..., --, fs_search args...
  local label=$1; shift
  local rg_args=() ours=()
  while [ "$1" != "--" ]; do rg_args+=("$1"); shift; done
  shift
  ours=("$@")
  if command -v hyperfine >/dev/null; then
    hyperfine -N -w 1 -r "$RUNS" "rg ${rg_args[*]} $TREE" "$FS_SEARCH ${ours[*]}" | grep -E "Time|±" || true
  fi
  local a b
  a=$(time_ms rg "${rg_args[@]}" "$TREE")
  b=$(time_ms "$FS_SEARCH" "${ours[@]}")
  awk -v l="$label" -v a="$a" -v b="$b" \
    'BEGIN { printf "%-28s rg %5d ms   ours %5d ms   ratio %.2fx\n", l, a, b, (a ? b / a : 0) }'
}

echo "tree: $TREE ($(find "$TREE" -type f | wc -l) files, $(du -sh "$TREE" | cut -f1)); cores: $(nproc); median of $RUNS"
compare "literal -l"            -l needle_xyzzy -- needle_xyzzy "$TREE"
compare "regex -l"              -l 'register\w+Handler' -- 'register\w+Handler' "$TREE"
compare "case-insensitive -l"   -il NEEDLE_XYZZY -- NEEDLE_XYZZY "$TREE" files_with_matches -i
compare "content -n"            -n 'needle_\w+' -- 'needle_\w+' "$TREE" content
compare "count (every file)"    -c alpha -- alpha "$TREE" count

# glob vs find / fdfind: the fs_bench binary has the in-process glob numbers
# (BM_Glob vs BM_Find); here only the external tools, for reference.
a=$(time_ms find "$TREE" -name '*7.txt')
echo "find -name '*7.txt'           $a ms"
if command -v fdfind >/dev/null; then
  a=$(time_ms fdfind -u -g '*7.txt' "$TREE")
  echo "fdfind -g '*7.txt'            $a ms"
fi
