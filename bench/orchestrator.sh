#!/bin/sh
# Benchmark (not a test): the orchestrator's overhead. A 10-configuration, 2-version,
# 3-round grid with 1 s per run (0.2 s warm-up + 0.8 s measurement) against fresh reference
# TCP servers. Prints wall time / (runs x (warm-up + duration)); target <= 1.10 (server start,
# readiness probe and process churn included).
# Usage: sh bench/orchestrator.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
driver=${BIN_DRIVER:-$top/bin/driver}
compare=${BIN_COMPARE:-$top/bin/compare}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/grid.json" <<JSON
{"name": "overhead", "defaults": {"protocol": "tcp", "connections": 2},
 "axes": {"payload": [64, 128, 256, 512, 1024], "window": [1, 4]}}
JSON
cat > "$tmp/spec.json" <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$driver serve tcp --port {port}"}},
              {"name": "b", "server": {"tcp": "$driver serve tcp --port {port}"}}],
 "grids": ["$tmp/grid.json"], "runs": 3, "warmup": 0.2, "duration": 0.8}
JSON
start=$(date +%s.%N)
"$compare" run --spec "$tmp/spec.json" --out "$tmp/out" > /dev/null 2> "$tmp/err" || { cat "$tmp/err"; exit 3; }
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN {
    ideal = 10 * 2 * 3 * 1.0
    printf "orchestrator: %.1f s wall for %d runs of 1.0 s: %.3fx of warm-up + duration (target <= 1.10)\n", e - s, 60, (e - s) / ideal
}'
