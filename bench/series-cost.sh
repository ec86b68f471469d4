#!/bin/sh
# Benchmark (not a test): what the time series (docs/driver.md, "Over time") costs the
# driver. Against one `driver serve tcp` (SERVE_WORKERS threads), ROUNDS rounds of two driver
# runs side by side, the series on (--interval-ms 100) and off (--interval-ms 0), the order
# alternating between rounds (on/off, off/on, ...); each run sends RATE requests/s
# (--rate, open loop, pipeline 1) on CONNS connections for SECS seconds. Prints per round the
# driver's CPU per request (user + system over the measured window, / ops) of each and the
# ratio on/off, then the median ratio: the target is at most 1.05 at 100 000 requests/s.
# Timed under flock /tmp/pairbench-timing.lock (one timing at a time). Part "instr": the
# same two settings counted under valgrind (callgrind's instruction total) over REQUESTS
# closed-loop requests, less a one-request run's start-up, IROUNDS times each alternating:
# the driver's user-space instructions per request, which the host's load does not move.
# Usage: sh bench/series-cost.sh [cpu|instr|all]   env: ROUNDS (7), RATE (100000), CONNS (4),
#   SECS (2), SERVE_WORKERS (2), IROUNDS (3), REQUESTS (60000)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-all}
rounds=${ROUNDS:-7}
irounds=${IROUNDS:-3}
requests=${REQUESTS:-60000}
rate=${RATE:-100000}
conns=${CONNS:-4}
secs=${SECS:-2}
serve_workers=${SERVE_WORKERS:-2}
DRIVER=${DRIVER:-$top/bin/driver}
COMPARE=${COMPARE:-$top/bin/compare}
out=$(mktemp -d /tmp/pairbench-series-cost.XXXXXX)
. "$top/bench/host.sh"
private_bins "$out"
host_line
echo "commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown); load:$(uptime | sed 's/.*load average//')"
port=$(free_port)
"$DRIVER" serve tcp --port "$port" --payload 64 --workers "$serve_workers" > "$out/serve.log" 2>&1 &
spid=$!
trap 'kill $spid 2>/dev/null; wait $spid 2>/dev/null; rm -rf "$out"' EXIT
wait_port "$port"

one() { # interval-ms -> prints "cpu_us_per_request achieved_rate"
    flock /tmp/pairbench-timing.lock "$DRIVER" tcp --port "$port" --payload 64 --connections "$conns" \
        --workers 2 --rate "$rate" --warmup 0.3 --duration "$secs" --interval-ms "$1" > "$out/r.json" 2>> "$out/driver.err"
    node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1]));
console.log(((r.cpu.user_s + r.cpu.sys_s) * 1e6 / r.ops).toFixed(3), r.throughput.toFixed(0));' "$out/r.json"
}

counted() { # interval-ms requests -> callgrind's instruction total
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$DRIVER" tcp --port "$port" \
        --payload 64 --connections "$conns" --workers 2 --warmup 0 --requests "$2" \
        --interval-ms "$1" 2> "$out/vg.err" > /dev/null
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/vg.err"
}

if [ "$what" = instr ] || [ "$what" = all ]; then
    base_on=$(counted 100 1)
    base_off=$(counted 0 1)
    echo "| round | series on: instructions/request | series off | on / off |"
    echo "|---|---|---|---|"
    r=1
    while [ "$r" -le "$irounds" ]; do
        on=$(counted 100 "$requests")
        off=$(counted 0 "$requests")
        node -e 'const [r, on, bon, off, boff, n] = process.argv.slice(1).map(Number);
const a = (on - bon) / n, b = (off - boff) / n;
console.log("| " + r + " | " + a.toFixed(1) + " | " + b.toFixed(1) + " | " + (a / b).toFixed(3) + " |");' \
            "$r" "$on" "$base_on" "$off" "$base_off" "$requests"
        r=$((r + 1))
    done
    # the totals move with how the loop's wake-ups fell; what callgrind attributes to the
    # series itself (engine/series.[ch] and the coarse bucket of common/hist.h, inlined) is
    # the part that does not
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$DRIVER" tcp --port "$port" \
        --payload 64 --connections "$conns" --workers 2 --warmup 0 --requests "$requests" \
        --interval-ms 100 > /dev/null 2>&1
    callgrind_annotate --threshold=100 "$out/cg" 2> /dev/null | node -e '
const lines = require("fs").readFileSync(0, "utf8").split("\n");
let total = 0, own = 0;
for (const l of lines) {
  const m = l.match(/^\s*([\d,]+)\s.*?\s(\S+):(\S+)(\s|$)/);
  if (/PROGRAM TOTALS/.test(l)) total = +l.trim().split(/\s/)[0].replace(/,/g, "");
  if (m && (/engine\/series\.[ch]$/.test(m[2]) || (/common\/hist\.h$/.test(m[2]) && m[3] === "account")))
    own += +m[1].replace(/,/g, "");
}
const n = +process.argv[1];
console.log("series own: " + (own / n).toFixed(1) + " instructions/request of " + (total / n).toFixed(1) +
  " (" + (own / total * 100).toFixed(1) + "%)");' "$requests"
fi
[ "$what" = instr ] && exit 0

echo "| round | order | series on: CPU µs/request (req/s) | series off | on / off |"
echo "|---|---|---|---|---|"
r=1
: > "$out/ratios"
while [ "$r" -le "$rounds" ]; do
    if [ $((r % 2)) -eq 1 ]; then
        on=$(one 100); off=$(one 0); order="on, off"
    else
        off=$(one 0); on=$(one 100); order="off, on"
    fi
    ratio=$(node -e 'console.log((process.argv[1] / process.argv[2]).toFixed(3))' "${on% *}" "${off% *}")
    echo "$ratio" >> "$out/ratios"
    echo "| $r | $order | ${on% *} (${on#* }) | ${off% *} (${off#* }) | $ratio |"
    r=$((r + 1))
done
node -e 'const v = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(Number).sort((a, b) => a - b);
const m = v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
console.log("median on/off: " + m.toFixed(3) + " [" + v[0].toFixed(3) + "-" + v[v.length - 1].toFixed(3) + "] (target <= 1.05)");' "$out/ratios"
echo "load after:$(uptime | sed 's/.*load average//'); schedule warnings: $(grep -c 'not kept' "$out/driver.err" || :) of $((rounds * 2)) runs"
