#!/bin/sh
# Benchmark (not a test): how often does `compare run` call a row of identical versions
# `regressed` or `improved` on any metric, at the default run count? REPS A/A runs of a
# 6-row TCP/Redis spec (the same reference TCP server and the same redis-server on both
# sides); counts the rows with any regressed or improved metric among REPS x 6 (target:
# at most 1 in 120, docs/statistics.md "A row as a family"). Prints one line per run and a
# total. Timed: run it alone, under the timing lock:
#   flock /tmp/pairbench-timing.lock sh bench/aa-family.sh
# Usage env: REPS 20, DURATION 0.5, WARMUP 0.2, RUNS (unset: the default run count),
#   OUT a scratch directory. About REPS x 12 x RUNS x (WARMUP + DURATION) s of runs.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
DRIVER=${DRIVER:-$top/bin/driver}
COMPARE=${COMPARE:-$top/bin/compare}
REPS=${REPS:-20}
DURATION=${DURATION:-0.5}
WARMUP=${WARMUP:-0.2}
RUNS=${RUNS:-}
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/aa-family.XXXXXX")}
mkdir -p "$OUT"
command -v node > /dev/null || { echo "aa-family: node is needed to read summary.json" >&2; exit 2; }
command -v redis-server > /dev/null || { echo "aa-family: redis-server is needed" >&2; exit 2; }
. "$top/bench/host.sh"
private_bins "$OUT"

cat > "$OUT/grid.json" <<'JSON'
{"name": "aa-family", "description": "6 latency- and throughput-bound TCP and Redis rows",
 "configs": [
  {"protocol": "tcp", "payload": 64, "window": 1, "connections": 4},
  {"protocol": "tcp", "payload": 64, "window": 16, "connections": 4},
  {"protocol": "tcp", "payload": 4096, "window": 1, "connections": 4},
  {"protocol": "redis", "command": "SET", "payload": 64, "pipeline": 1, "window": 1, "connections": 4},
  {"protocol": "redis", "command": "GET", "payload": 64, "pipeline": 1, "window": 1, "connections": 4},
  {"protocol": "redis", "command": "GET", "payload": 64, "pipeline": 16, "window": 1, "connections": 4}]}
JSON
runs_key=""
[ -n "$RUNS" ] && runs_key=", \"runs\": $RUNS"
redis="redis-server --port {port} --bind 127.0.0.1 --save '' --appendonly no --dir {dir}"
cat > "$OUT/spec.json" <<JSON
{"versions": [
  {"name": "a", "driver": "$DRIVER", "server": {"redis": "$redis", "tcp": "$DRIVER serve tcp --port {port}"}},
  {"name": "b", "driver": "$DRIVER", "server": {"redis": "$redis", "tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["$OUT/grid.json"], "warmup": $WARMUP, "duration": $DURATION, "grace": 10$runs_key}
JSON

flagged=0 rows=0 i=1
while [ "$i" -le "$REPS" ]; do
    d=$OUT/run-$i
    if ! "$COMPARE" run --spec "$OUT/spec.json" --out "$d" > /dev/null 2> "$d.err"; then
        echo "aa-family: run $i failed: $(tail -3 "$d.err")" >&2
        exit 1
    fi
    line=$(node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
let f = 0, names = [];
for (const r of s.rows) {
  const hit = Object.entries(r.metrics).filter(([, m]) => Object.values(m.vs_baseline || {})
    .some(c => c.verdict === "regressed" || c.verdict === "improved")).map(([k]) => k);
  if (hit.length) { f++; names.push(r.label + ": " + hit.join(",")); }
}
const fam = r => (r.family ? r.family.chance : 0);
console.log(s.rows.length, f, s.rounds, Math.max(0, ...s.rows.map(fam)).toFixed(4), names.join("; "));
' "$d/summary.json")
    set -- $line
    rows=$((rows + $1)); flagged=$((flagged + $2))
    echo "run $i: $2 of $1 rows flagged at $3 runs a side (row family chance $4)${5:+: }$(echo "$line" | cut -d' ' -f5-)"
    i=$((i + 1))
done
echo "total: $flagged of $rows rows flagged on any metric (target: at most 1 in 120); data in $OUT"
