#!/bin/sh
# Benchmark (not a test): how sensitive and how trustworthy the verdicts are on this machine.
# For each public-endpoint row of the PR grid (TCP, HTTP, WebSocket against the reference
# servers, each in its own process):
#   1. calibrate the reference server's --delay-us so that the candidate loses ~10% and ~5%
#      of throughput (a ladder of delays measured with the driver directly, 0.5 s each);
#   2. run A/A (baseline against itself) REPEAT times: every `regressed` is a false alarm;
#   3. run A/B with the 10% and with the 5% delay: `regressed` is a detection.
# Prints false alarms and detection rates per level. Targets (issue 8): zero false alarms,
# >= 90% of rows flag the 10% loss; the 5% rate is reported as it is.
# Usage: sh bench/sensitivity.sh [RUNS] [DURATION] [REPEAT]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
driver=${BIN_DRIVER:-$top/bin/driver}
compare=${BIN_COMPARE:-$top/bin/compare}
runs=${1:-5}; duration=${2:-1}; repeat=${3:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-bench.XXXXXX")
srv=""
cleanup() { [ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
jget() { node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(eval(process.argv[2]))' "$1" "$2"; }
freeport() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# name|protocol|payload|workers|server workers
rows="tcp-64|tcp|64|4|2
http-4k|http|4096|1|1
ws-64|ws|64|4|2
ws-4k|ws|4096|4|2"

throughput_at() { # proto payload workers sworkers delay -> ops/s (median of 3 x 0.5 s)
    port=$(freeport)
    "$driver" serve "$1" --port "$port" --workers "$4" --payload "$2" --delay-us "$5" > /dev/null 2>&1 &
    srv=$!
    sleep 0.3
    for i in 1 2 3; do
        "$driver" "$1" --port "$port" --connections 16 --workers "$3" --window 16 \
            --payload "$2" --warmup 0.2 --duration 0.5 > "$tmp/t.json"
        jget "$tmp/t.json" 'd.throughput'
    done | sort -n | sed -n 2p
    kill "$srv"; wait "$srv" 2>/dev/null || true; srv=""
}

fa=0; aa_total=0; det10=0; det5=0; nrows=0
printf '%-8s %10s %8s %8s   %s\n' row "base k/s" "d10 µs" "d5 µs" "A/A false alarms, A/B 10%, A/B 5%"
echo "$rows" | while IFS='|' read -r name proto payload workers sworkers; do
    base=$(throughput_at "$proto" "$payload" "$workers" "$sworkers" 0)
    d10=""; d5=""
    for d in 2 5 10 20 30 50 75 100 150 200 300 500 800 1200; do
        t=$(throughput_at "$proto" "$payload" "$workers" "$sworkers" "$d")
        r=$(awk -v t="$t" -v b="$base" 'BEGIN {printf "%.4f", t / b}')
        [ -z "$d5" ] && awk -v r="$r" 'BEGIN {exit !(r <= 0.955)}' && d5=$d
        if awk -v r="$r" 'BEGIN {exit !(r <= 0.905)}'; then d10=$d; break; fi
    done
    [ -n "$d10" ] || d10=1200; [ -n "$d5" ] || d5=$d10
    cat > "$tmp/grid-$name.json" <<JSON
{"name": "$name", "defaults": {"protocol": "$proto", "payload": $payload, "connections": 16,
 "workers": $workers, "window": 16}}
JSON
    spec() { # FILE DELAY
        cat > "$1" <<JSON
{"versions": [
   {"name": "baseline", "server": {"$proto": "$driver serve $proto --port {port} --workers $sworkers --payload $payload"}},
   {"name": "candidate", "server": {"$proto": "$driver serve $proto --port {port} --workers $sworkers --payload $payload --delay-us $2"}}],
 "grids": ["$tmp/grid-$name.json"], "runs": $runs, "warmup": 0.5, "duration": $duration}
JSON
    }
    verdict() { # SPEC -> throughput verdict
        "$compare" run --spec "$1" --out "$tmp/run-$$-$(date +%s%N)" > "$tmp/last" 2> /dev/null || true
        jget "$(cat "$tmp/last")/summary.json" 'd.rows[0].metrics.throughput.vs_baseline.candidate.verdict'
    }
    spec "$tmp/aa.json" 0
    aa=""
    for i in $(seq "$repeat"); do aa="$aa $(verdict "$tmp/aa.json")"; done
    spec "$tmp/ab10.json" "$d10"; v10=$(verdict "$tmp/ab10.json")
    spec "$tmp/ab5.json" "$d5"; v5=$(verdict "$tmp/ab5.json")
    printf '%-8s %10.1f %8s %8s   A/A:%s | 10%%: %s | 5%%: %s\n' "$name" \
        "$(awk -v b="$base" 'BEGIN {print b / 1000}')" "$d10" "$d5" "$aa" "$v10" "$v5"
    echo "$aa" | tr ' ' '\n' | grep -c '^regressed$\|^improved$' >> "$tmp/fa" || true
    [ "$v10" = regressed ] && echo 1 >> "$tmp/d10" || echo 0 >> "$tmp/d10"
    [ "$v5" = regressed ] && echo 1 >> "$tmp/d5" || echo 0 >> "$tmp/d5"
done
awk '{s += $1} END {printf "false alarms over the A/A runs: %d\n", s}' "$tmp/fa"
awk '{s += $1; n++} END {printf "rows flagging the ~10%% loss: %d of %d (%.0f%%)\n", s, n, 100 * s / n}' "$tmp/d10"
awk '{s += $1; n++} END {printf "rows flagging the ~5%% loss: %d of %d (%.0f%%)\n", s, n, 100 * s / n}' "$tmp/d5"
