#!/bin/sh
# pairbench-test: untimed
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

# A peer that sends less than one --payload message (compare's readiness probe sends 16 bytes)
# still gets its bytes back after the delay: a delayed server with --payload 64 must pass
# compare's probe and be measured (it used to hold the probe's echo forever).
node -e '
const s = require("net").connect(+process.argv[1], "127.0.0.1", () => s.write("pairbench-probe\n"));
const t0 = Date.now(); let got = "";
s.on("data", d => { got += d; if (got.length >= 16) { console.log(got === "pairbench-probe\n" ? "echoed " + (Date.now() - t0) : "bad " + got); s.destroy(); } });
setTimeout(() => { console.log("no echo"); process.exit(0); }, 3000);' "$port1" > "$T/partial"
case $(cat "$T/partial") in echoed*) ;; *) fail "partial message on a delayed --payload 64 server: $(cat "$T/partial")" ;; esac
cat > "$T/grid.json" <<JSON
{"name": "d", "defaults": {"protocol": "tcp", "payload": 64, "connections": 2}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port} --payload 64"}},
              {"name": "b", "server": {"tcp": "$DRIVER serve tcp --port {port} --payload 64 --workers 2 --delay-us 100"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0, "duration": 0.2}
JSON
"$COMPARE" run --spec "$T/spec.json" --out "$T/cmp" > /dev/null 2> "$T/cmp.err" \
    || fail "compare against a delayed --payload 64 server exited $?: $(tail -3 "$T/cmp.err")"
echo "ok: delay lowers throughput; partial messages are echoed after the delay"
