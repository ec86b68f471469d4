#!/bin/sh
# Runs every built libFuzzer target for SECONDS each over its committed seed corpus
# (tests/fuzz/corpus/<target>/), writing new inputs to a scratch copy.
# Usage: tests/fuzz/run.sh BUILD_DIR SECONDS
set -eu
build=$1; secs=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
status=0
for bin in "$build"/fuzz-bin/fuzz_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    seeds="$top/tests/fuzz/corpus/$name"
    scratch=$(mktemp -d)
    [ -d "$seeds" ] && cp -R "$seeds"/. "$scratch"/ 2>/dev/null || true
    printf 'fuzz %s: %ss\n' "$name" "$secs"
    if ! "$bin" -max_total_time="$secs" -rss_limit_mb=1024 -max_len=65536 \
            -artifact_prefix="$scratch/" "$scratch" > "$scratch.log" 2>&1; then
        status=1
        printf 'fuzz %s: FAILED\n' "$name"
        tail -n 30 "$scratch.log"
        ls "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* 2>/dev/null || true
    fi
    rm -rf "$scratch" "$scratch.log"
done
exit $status
