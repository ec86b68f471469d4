#!/bin/sh
# The reference server's --delay-us knob is a known regression: with window 1, a 2000 us
# delay per reply must cut throughput well below half of the undelayed run, measured side
# by side (alternating, best of two each), and show up in the batch latency.
. "$(dirname "$0")/../lib.sh"
need node

port0=$(free_port)
start_bg fast "$DRIVER" serve tcp --port "$port0" --payload 64
port1=$(free_port)
start_bg slow "$DRIVER" serve tcp --port "$port1" --payload 64 --delay-us 2000
wait_port "$port0"
wait_port "$port1"

best0=0; best1=0
for round in 1 2; do
    for p in "$port0" "$port1"; do
        "$DRIVER" tcp --port "$p" --warmup 0.05 --duration 0.3 > "$T/r$p.json" \
            || fail "driver exited $? (port $p)"
    done
    best0=$(json_get "$T/r$port0.json" "Math.max(this.throughput, $best0)")
    best1=$(json_get "$T/r$port1.json" "Math.max(this.throughput, $best1)")
done
p50=$(json_get "$T/r$port1.json" 'this.latency_us.p50')
echo "throughput: no delay $best0/s, delay 2000us $best1/s; delayed p50 ${p50}us"
assert_eq "$(node -e "console.log($best1 < 0.5 * $best0 && $best1 > 0)")" true \
    "delayed throughput $best1 not below half of $best0"
assert_eq "$(node -e "console.log($p50 >= 1900)")" true "delayed p50 ${p50}us"

# the colocated server honours the knob too
"$DRIVER" tcp --serve --delay-us 5000 --warmup 0 --requests 20 > "$T/s.json" || fail "--serve --delay-us"
assert_eq "$(json_get "$T/s.json" 'this.latency_us.p50 >= 4900 && this.ops === 20')" true "--serve --delay-us 5000"
echo "ok: delay lowers throughput"
