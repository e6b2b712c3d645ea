#!/usr/bin/env bash
# Times `perl -pe` applying the seed's five credential patterns (as s///gi substitutions) to the
# same deterministic corpus scrub_bench measures, and compares with clawtools::Scrubber (full rule
# set) on that file.
#
#   bench/perl_yardstick.sh [SCRUB_BENCH] [SIZE_MB] [WITH_SECRETS]
#   defaults: build-scrub/bench/scrub_bench 50 1
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
bench="${1:-$here/../build-scrub/bench/scrub_bench}"
size_mb="${2:-50}"
with_secrets="${3:-1}"
corpus="$(mktemp "${TMPDIR:-/tmp}/scrub_corpus.XXXXXX")"
trap 'rm -f "$corpus" "$corpus.out"' EXIT

"$bench" --write-corpus "$corpus" "$size_mb" "$with_secrets" >/dev/null
bytes=$(stat -c %s "$corpus")

best=""
for _ in 1 2 3; do
  start=$(date +%s.%N)
  perl -pe 's/sk-[a-zA-Z0-9]{20,}/[REDACTED]/gi;
            s/sk-ant-[a-zA-Z0-9-]{20,}/[REDACTED]/gi;
            s/gh[pousr]_[a-zA-Z0-9]{36}/[REDACTED]/gi;
            s/AKIA[A-Z0-9]{16}/[REDACTED]/gi;
            s/(api_key|token|secret|password|bearer|authorization)[:=]\S+/[REDACTED]/gi;' \
    "$corpus" >"$corpus.out"
  end=$(date +%s.%N)
  t=$(echo "$end - $start" | bc -l)
  if [[ -z "$best" ]] || (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
done
perl_mbs=$(echo "$bytes / 1048576 / $best" | bc -l)
printf 'corpus: %s MB, secrets=%s (%d bytes)\n' "$size_mb" "$with_secrets" "$bytes"
printf 'perl -pe (5 seed patterns): %.1f MB/s (best of 3: %.3f s, %d redactions)\n' \
  "$perl_mbs" "$best" "$(grep -o '\[REDACTED\]' "$corpus.out" | wc -l)"

ours=$("$bench" --scrub-file "$corpus")
echo "clawtools Scrubber (full rule set): $ours"
ours_mbs=${ours%% *}
printf 'ratio: %.1fx\n' "$(echo "$ours_mbs / $perl_mbs" | bc -l)"
