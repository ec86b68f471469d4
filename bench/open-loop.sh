#!/bin/sh
# Benchmark (not a test): how steady fixed-rate figures are next to saturated throughput on
# this machine, and whether the gate on fixed-rate rows passes A/A and catches 10% more CPU
# per request (issue 40; docs/results/open-loop.md).
#   1. One `compare run` A/A (the same servers as baseline and candidate, ROUNDS rounds) over
#      Redis SET at 1 and 4 connections and the reference TCP echo server at 4 connections,
#      each row twice: closed loop (saturated) and at a fixed rate (RATE_REDIS, RATE_TCP).
#      Prints per row the A/A spread of the per-round paired ratios (min..max, and max/min-1)
#      of throughput (closed rows), server CPU per request and P99 (fixed-rate rows).
#   2. TRIES times `compare gate` on the TCP echo fixed-rate row: A/A (should exit 0), then a
#      candidate whose server spends --work W rounds more per request, W set to cost 10% of
#      the baseline's server CPU per request measured in step 1 (NS_PER_ROUND ns a round,
#      bench/sensitivity.sh's figure), which should exit 1. Each gate may spend BUDGET.
#      The gate pins the driver and the server, and pinned the server's CPU per request
#      and the cost of a round can differ from step 1's unpinned figures: on the 2-vCPU VM
#      of docs/results/open-loop.md, "The fixed-rate gate", 19 us and 1.03 ns (TCP_CPU_US=19
#      NS_PER_ROUND=1.03 gave a candidate measured at +10.8%).
# Every comparison is a timing run: each one runs under `flock /tmp/pairbench-timing.lock`.
# Usage: sh bench/open-loop.sh [ROUNDS] [DURATION] [TRIES]   (defaults 6, 2 s, 3)
#   3. STEP=sched only: the driver's own schedule at RATE_SCHED (100000) requests/s on 4
#      connections against the reference TCP server (workers 1 and 2): achieved rate, requests
#      sent more than 1 ms late (target <= 1%), the largest lag, and the driver's CPU per
#      request beside its closed-loop CPU per round trip.
#   env: RATE_REDIS (5000), RATE_TCP (5000), BUDGET (3m), NS_PER_ROUND (1.85), STEP (all,
#   spreads, gate or sched), KEEP (a directory that keeps the run directories), BIN_DRIVER,
#   BIN_COMPARE
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/host.sh"
driver=${BIN_DRIVER:-$top/bin/driver}
compare=${BIN_COMPARE:-$top/bin/compare}
rounds=${1:-6}; duration=${2:-2}; tries=${3:-3}
rate_redis=${RATE_REDIS:-5000}; rate_tcp=${RATE_TCP:-5000}; budget=${BUDGET:-3m}
rate_sched=${RATE_SCHED:-100000}
nspr=${NS_PER_ROUND:-1.85}; step=${STEP:-all}
for v in "$rounds" "$tries" "$rate_redis" "$rate_tcp" "$rate_sched"; do
    case $v in '' | *[!0-9]* | 0*) echo "bench: '$v': expected a whole number >= 1" >&2; exit 2 ;; esac
done
command -v redis-server > /dev/null || { echo "bench: redis-server not found" >&2; exit 2; }
command -v node > /dev/null || { echo "bench: node not found" >&2; exit 2; }
lock=/tmp/pairbench-timing.lock
T=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-open-loop.XXXXXX")
trap '[ -n "${KEEP:-}" ] && { mkdir -p "$KEEP"; cp -r "$T"/. "$KEEP"/; }; rm -rf "$T"' EXIT

redis_srv="redis-server --port {port} --bind 127.0.0.1 --save '' --appendonly no"
tcp_srv="$driver serve tcp --port {port} --payload 64"

spreads() {
    cat > "$T/grid.json" <<JSON
{"name": "open-loop", "configs": [
  {"protocol": "redis", "command": "SET", "payload": 64, "connections": 1},
  {"protocol": "redis", "command": "SET", "payload": 64, "connections": 1, "rate": $rate_redis},
  {"protocol": "redis", "command": "SET", "payload": 64, "connections": 4},
  {"protocol": "redis", "command": "SET", "payload": 64, "connections": 4, "rate": $rate_redis},
  {"protocol": "tcp", "payload": 64, "connections": 4},
  {"protocol": "tcp", "payload": 64, "connections": 4, "rate": $rate_tcp}]}
JSON
    cat > "$T/aa.json" <<JSON
{"versions": [{"name": "a", "server": {"redis": "$redis_srv", "tcp": "$tcp_srv"}},
              {"name": "b", "server": {"redis": "$redis_srv", "tcp": "$tcp_srv"}}],
 "grids": ["$T/grid.json"], "runs": $rounds, "warmup": 0.5, "duration": $duration}
JSON
    rc=0
    flock "$lock" "$compare" run --spec "$T/aa.json" --out "$T/aa" > /dev/null 2> "$T/aa.err" || rc=$?
    # a failed run still leaves the others measured: print them (exit 3: nothing to print)
    [ -s "$T/aa/summary.json" ] ||
        { tail -5 "$T/aa.err" >&2; echo "bench: compare run A/A exited $rc" >&2; exit 3; }
    [ $rc -eq 0 ] || echo "bench: compare run A/A exited $rc (some runs failed: $T/aa.err)" >&2
    node - "$T/aa/summary.json" <<'JS'
const s = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const f = (x, d) => (x === undefined || x === null ? "-" : x.toFixed(d));
const spread = (m) => {
  const p = m && m.vs_baseline && m.vs_baseline.b && m.vs_baseline.b.paired_ratio;
  if (!p) return "-";
  return `${f(p.min, 3)}..${f(p.max, 3)} (${f((p.max / p.min - 1) * 100, 1)}%)`;
};
const med = (m) => (m && m.values && m.values.a ? m.values.a.median : undefined);
console.log("A/A spreads: per-round paired ratios b/a, min..max (max/min - 1)");
console.log(["row", "throughput", "server CPU/op", "P99"].join(" | "));
for (const r of s.rows) {
  const m = r.metrics, rate = r.params && r.params.rate > 0;
  console.log([r.label,
    (rate ? "setting " : "") + spread(m.throughput) + ` [${f(med(m.throughput), 0)}/s]`,
    spread(m.server_cpu_us) + ` [${f(med(m.server_cpu_us), 2)} us]`,
    spread(m.p99_us) + ` [${f(med(m.p99_us), 0)} us]`].join(" | "));
}
JS
    node -e 'const s=JSON.parse(require("fs").readFileSync(process.argv[1]));
      const r=s.rows.find(r=>r.params.protocol==="tcp"&&r.params.rate>0);
      console.log(r.metrics.server_cpu_us.values.a.median)' "$T/aa/summary.json" > "$T/tcp_cpu_us"
}

gate() { # NAME WORK: one gate try on the TCP fixed-rate row; prints its exit code
    cat > "$T/g-grid.json" <<JSON
{"name": "open-gate", "defaults": {"protocol": "tcp", "payload": 64, "connections": 4, "rate": $rate_tcp}}
JSON
    extra=""; [ "$2" -gt 0 ] && extra=" --work $2"
    cat > "$T/g-$1.json" <<JSON
{"versions": [{"name": "baseline", "server": {"tcp": "$tcp_srv"}},
              {"name": "candidate", "server": {"tcp": "$tcp_srv$extra"}}],
 "grids": ["$T/g-grid.json"], "runs": $rounds, "warmup": 0.5, "duration": $duration}
JSON
    rc=0
    flock "$lock" "$compare" gate --spec "$T/g-$1.json" --budget "$budget" --out "$T/g-$1" \
        > /dev/null 2> "$T/g-$1.err" || rc=$?
    echo "$rc $(grep 'compare: gate: ' "$T/g-$1.err" | tail -1 | cut -c1-160)"
}

sched() { # the driver's own schedule at RATE_SCHED/s on 4 connections, workers 1 and 2
    port=$(free_port)
    "$driver" serve tcp --port "$port" --payload 64 --workers 1 > "$T/srv.out" 2>&1 &
    spid=$!
    wait_port "$port" || { echo "bench: the reference server did not listen on $port" >&2; exit 3; }
    echo "the driver's schedule: $rate_sched/s, 4 connections, 64 B TCP echo, 3 s windows"
    echo "workers | arrival | achieved/s | late (> 1 ms) | max lag | kept | driver CPU per request"
    for w in 1 2; do
        for a in uniform closed; do
            r="--rate $rate_sched --arrival uniform"; [ $a = closed ] && r=""
            # shellcheck disable=SC2086
            flock "$lock" "$driver" tcp --port "$port" --connections 4 --workers $w --payload 64 \
                --warmup 0.5 --duration 3 $r > "$T/s.json" 2> "$T/s.err" || true
            node -e '
const x = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")), r = x.rate;
const us = ((x.cpu.user_s + x.cpu.sys_s) / x.ops * 1e6).toFixed(2);
console.log(r ? [process.argv[2], "uniform", r.achieved.toFixed(1),
  `${r.late} of ${r.sent} (${(r.late / r.sent * 100).toFixed(2)}%)`,
  `${(r.max_lag_us / 1000).toFixed(1)} ms`, r.kept ? "yes" : "no", `${us} us`].join(" | ")
  : [process.argv[2], "closed loop", x.throughput.toFixed(0), "-", "-", "-",
     `${us} us per round trip`].join(" | "));' "$T/s.json" "$w"
        done
    done
    kill "$spid" 2> /dev/null; wait "$spid" 2> /dev/null || true
}

case $step in all | spreads) spreads ;; esac
case $step in sched) sched ;; esac
case $step in
all | gate)
    cpu=$(cat "$T/tcp_cpu_us" 2> /dev/null || echo "${TCP_CPU_US:?STEP=gate needs TCP_CPU_US}")
    work=$(node -e "console.log(Math.round(0.10 * $cpu * 1000 / $nspr))")
    echo "gate on the fixed-rate TCP row: server CPU/op $cpu us; candidate --work $work (+10%)"
    i=1
    while [ $i -le "$tries" ]; do
        s=$(date +%s); a=$(gate "aa$i" 0); m=$(( $(date +%s) - s ))
        s=$(date +%s); b=$(gate "ab$i" "$work"); n=$(( $(date +%s) - s ))
        echo "try $i: A/A exit ${a%% *} (${m}s), +10% exit ${b%% *} (${n}s)"
        echo "    A/A: ${a#* }"
        echo "    +10%: ${b#* }"
        i=$((i + 1))
    done
    ;;
esac
