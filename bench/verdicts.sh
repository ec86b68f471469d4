#!/bin/sh
# Benchmark (not a test): do the verdicts match the evidence? For each server, run count and
# injected change, one `compare run` of ROWS rows (a grid whose rows differ only in payload by
# a byte, so each row is one try of the same comparison) and count, per row, the throughput
# verdict (regressed, ~, undecided) and whether any metric was flagged (regressed or
# improved). Prints one matrix measured in one run:
#   server   the reference TCP echo server (`driver serve tcp`), the reference HTTP server
#            (`driver serve http`), redis-server SET
#   runs     3 and 5 runs a side
#   change   A/A, and the candidate slowed by about 5%, 10%, 30% and 80% of throughput:
#            --work (CPU per request) calibrated here for TCP and HTTP up to 30%, --delay-us
#            for 80%; redis-server has no such knob, so its 80% candidate runs under
#            `valgrind --tool=none` and it has no 5-30% cells. The measured median change is
#            printed beside each target.
# Targets (issue 50): A/A rows flagged on any metric <= 1 in 20 at 3 runs and at 5; an 80%
# change regressed in >= 19 of 20 at 3 runs; 30% in >= 9 of 10 at 5 runs.
# Usage: sh bench/verdicts.sh   (env: ROWS3 20, ROWS5 10, DURATION 0.5, WARMUP 0.2,
#        SERVERS "tcp http redis", CHANGES "0 5 10 30 80", OUT a scratch directory)
# About 40 minutes on 2 cores with the defaults. Run it on an otherwise idle machine.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
DRIVER=${DRIVER:-$top/bin/driver}
COMPARE=${COMPARE:-$top/bin/compare}
ROWS3=${ROWS3:-20}
ROWS5=${ROWS5:-10}
DURATION=${DURATION:-0.5}
WARMUP=${WARMUP:-0.2}
SERVERS=${SERVERS:-"tcp http redis"}
CHANGES=${CHANGES:-"0 5 10 30 80"}
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/verdicts.XXXXXX")}
mkdir -p "$OUT"
. "$top/bench/host.sh"
private_bins "$OUT"
srv_pid=
cleanup() { [ -n "$srv_pid" ] && kill "$srv_pid" 2> /dev/null; return 0; }
trap cleanup EXIT INT TERM

redis="redis-server --port {port} --bind 127.0.0.1 --save '' --appendonly no --dir {dir}"

# grid SERVER ROWS: ROWS configurations of one protocol, payloads 64..64+ROWS-1 (HTTP: the
# reference server's one 4 KiB body, on paths /r0../rN-1, which it does not read)
grid() {
    node -e '
const [proto, rows] = [process.argv[1], +process.argv[2]];
const d = proto === "redis" ? {protocol: "redis", command: "SET", connections: 4, workers: 4}
  : {protocol: proto, connections: 4, workers: 2};
const axes = proto === "http"
  ? (d.payload = 4096, {path: Array.from({length: rows}, (_, i) => "/r" + i)})
  : {payload: Array.from({length: rows}, (_, i) => 64 + i)};
console.log(JSON.stringify({name: "verdicts-" + proto, defaults: d, axes}));' "$1" "$2"
}

# throughput SERVER FLAGS DRIVER_FLAGS: one driver run against a fresh reference server with
# FLAGS
throughput() {
    port=$(free_port)
    "$DRIVER" serve "$1" --port "$port" $2 > /dev/null 2>&1 &
    srv_pid=$!
    wait_port "$port"
    "$DRIVER" "$1" --port "$port" --connections 4 --workers 2 --warmup 0.3 --duration 1 $3 |
        node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).throughput))'
    kill "$srv_pid" && wait "$srv_pid" 2> /dev/null || true
    srv_pid=
}

# knob SERVER CHANGE: the server flags that slow it by about CHANGE% of throughput
knob() {
    [ "$2" = 0 ] && return 0
    if [ "$2" -ge 80 ]; then
        # closed loop at 4 connections: each request's round trip is 4 / throughput; a delay
        # of rt * (1 / (1 - c) - 1) takes the share c of it
        node -e 'const [t0, c] = [+process.argv[1], +process.argv[2] / 100];
console.log("--delay-us " + Math.max(1, Math.round(4 / t0 * 1e6 * (1 / (1 - c) - 1))))' \
            "$(eval echo "\$t0_$1")" "$2"
        return 0
    fi
    # CPU per request grows linearly with --work: 1/T(W) = 1/T0 + k W, measured at W1
    node -e 'const [t0, t1, w1, c] = process.argv.slice(1).map(Number), k = (1 / t1 - 1 / t0) / w1;
console.log("--work " + Math.max(1, Math.round((1 / (t0 * (1 - c / 100)) - 1 / t0) / k)))' \
        "$(eval echo "\$t0_$1")" "$(eval echo "\$t1_$1")" 4000 "$2"
}

# spec SERVER CHANGE: baseline and candidate of one server, the candidate slowed by CHANGE%
spec() {
    if [ "$1" = redis ]; then
        cand=$redis
        [ "$2" -ge 80 ] && cand="valgrind --tool=none -q $redis"
        [ "$2" -gt 0 ] && [ "$2" -lt 80 ] && return 1
        printf '{"versions": [{"name": "baseline", "driver": "%s", "server": {"redis": "%s"}},
 {"name": "candidate", "driver": "%s", "server": {"redis": "%s"}}]}\n' \
            "$DRIVER" "$redis" "$DRIVER" "$cand" > "$OUT/spec.json"
        return 0
    fi
    flags=$(knob "$1" "$2")
    extra=
    [ "$1" = http ] && extra=" --payload 4096"
    printf '{"versions": [{"name": "baseline", "driver": "%s", "server": {"%s": "%s serve %s --port {port}%s"}},
 {"name": "candidate", "driver": "%s", "server": {"%s": "%s serve %s --port {port}%s %s"}}]}\n' \
        "$DRIVER" "$1" "$DRIVER" "$1" "$extra" "$DRIVER" "$1" "$DRIVER" "$1" "$extra" \
        "$flags" > "$OUT/spec.json"
}

# counts DIR: "rows regressed ~ undecided flagged median-change" of the run in DIR
counts() {
    node -e '
const s = require(process.argv[1] + "/summary.json");
let reg = 0, same = 0, und = 0, flagged = 0; const ch = [];
for (const r of s.rows) {
  const m = r.metrics, v = m.throughput.vs_baseline.candidate;
  ch.push(v.change);
  if (v.verdict === "regressed") reg++; else if (v.verdict === "~") same++; else und++;
  if (Object.values(m).some(x => Object.values(x.vs_baseline || {}).some(
      c => c.verdict === "regressed" || c.verdict === "improved"))) flagged++;
}
ch.sort((a, b) => a - b);
const med = ch.length ? ch[ch.length >> 1] : NaN;
console.log(`${s.rows.length} ${reg} ${same} ${und} ${flagged} ${(med * 100).toFixed(1)}`);' "$1"
}

host_line
printf 'pairbench %s, %s\n' "$("$COMPARE" --version 2> /dev/null | head -n 1)" "$(date -u +%FT%TZ)"
for s in tcp http; do
    case " $SERVERS " in *" $s "*) ;; *) continue ;; esac
    extra=
    [ "$s" = http ] && extra="--payload 4096"
    eval "t0_$s=\$(throughput $s \"$extra\" \"$extra\")"
    eval "t1_$s=\$(throughput $s \"$extra --work 4000\" \"$extra\")"
done
printf '\n| server | runs | change (target) | measured | rows | regressed | ~ | undecided | A/A flagged |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for s in $SERVERS; do
    for runs in 3 5; do
        rows=$ROWS3
        [ "$runs" = 5 ] && rows=$ROWS5
        grid "$s" "$rows" > "$OUT/grid.json"
        for c in $CHANGES; do
            spec "$s" "$c" || continue
            dir="$OUT/$s-$runs-$c"
            "$COMPARE" run --spec "$OUT/spec.json" --grid "$OUT/grid.json" --runs "$runs" \
                --warmup "$WARMUP" --duration "$DURATION" --out "$dir" \
                > "$dir.log" 2>&1 || true
            set -- $(counts "$dir")
            flag=$5
            [ "$c" != 0 ] && flag=-
            printf '| %s | %s | %s | %s%% | %s | %s | %s | %s | %s |\n' "$s" "$runs" \
                "$([ "$c" = 0 ] && echo A/A || echo "-$c%")" "$6" "$1" "$2" "$3" "$4" "$flag"
        done
    done
done
