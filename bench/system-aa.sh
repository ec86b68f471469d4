#!/bin/sh
# An A/A gate of two latency-bound rows (TCP echo to `driver serve tcp`, and Redis SET to the
# installed redis-server, each at 4 connections, window 1) before and after
# `compare system tune`, TRIES times each: the gate's exit code and, per row, the paired 90%
# interval of throughput and P99 (the width is what the host lets a gate resolve). The tune
# is undone by `compare system reset` (a trap resets it on failure too). Needs root for the
# tune. Timed: run it alone, e.g. `flock /tmp/pairbench-timing.lock sh bench/system-aa.sh`.
# Usage: sh bench/system-aa.sh   env: TRIES (2), RUNS (5), DURATION (1), OUT (a temp dir)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
compare=$top/bin/compare
out=${OUT:-$(mktemp -d /tmp/pairbench-system-aa.XXXXXX)}
tries=${TRIES:-2}
runs=${RUNS:-5}
duration=${DURATION:-1}
state=$out/system-tune.json
mkdir -p "$out"
[ "$(id -u)" -eq 0 ] || { echo "system-aa: needs root for compare system tune" >&2; exit 2; }
trap '"$compare" system reset --state "$state" > /dev/null 2>&1 || true' EXIT
cat > "$out/grid.json" <<EOT
{"name": "latency", "defaults": {"connections": 4, "window": 1, "payload": 64},
 "configs": [{"protocol": "tcp"}, {"protocol": "redis", "command": "SET"}]}
EOT
srv='{"tcp": "'$top'/bin/driver serve tcp --port {port}", "redis": "redis-server --port {port} --bind 127.0.0.1 --save \"\" --appendonly no --dir {dir}"}'
cat > "$out/spec.json" <<EOT
{"versions": [{"name": "a", "server": $srv}, {"name": "a-again", "server": $srv}],
 "grids": ["$out/grid.json"], "runs": $runs, "warmup": 0.5, "duration": $duration}
EOT
echo "| knobs | try | exit | row | throughput change [paired 90%] | verdict | P99 change [paired 90%] | verdict | load at start |"
echo "|---|---:|---:|---|---|---|---|---|---:|"
for phase in before tuned; do
    if [ $phase = tuned ]; then
        "$compare" system tune --state "$state" > "$out/tune.txt"
    fi
    t=1
    while [ $t -le "$tries" ]; do
        d=$out/$phase-$t
        rc=0
        "$compare" gate --spec "$out/spec.json" --budget 0 --out "$d" > "$d.log" 2>&1 || rc=$?
        node -e '
const s = require(process.argv[1] + "/summary.json"), m = require(process.argv[1] + "/meta.json");
const f = (x) => { const v = x.vs_baseline["a-again"], p = v.paired_ratio || {};
  return [(100 * v.change).toFixed(1) + "% [" + (100 * ((p.lo || NaN) - 1)).toFixed(1) + ", " +
          (100 * ((p.hi || NaN) - 1)).toFixed(1) + "]", v.verdict]; };
const la = (m.environment.loadavg_start || m.environment.loadavg || [NaN])[0];
for (const r of s.rows) {
  const a = f(r.metrics.throughput), b = f(r.metrics.p99_us);
  console.log(`| ${process.argv[2]} | ${process.argv[3]} | ${process.argv[4]} | ${r.label} | ${a[0]} | ${a[1]} | ${b[0]} | ${b[1]} | ${la} |`);
}' "$d" "$phase" "$t" "$rc"
        t=$((t + 1))
    done
done
"$compare" system reset --state "$state" > "$out/reset.txt"
echo "run directories and the tune's changes under $out"
