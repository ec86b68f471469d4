#!/bin/sh
# pairbench-test: timed
# The time series sees a stall the run's median hides. The reference server stops every
# worker for 400 ms once, when it has served its 5000th request (driver serve tcp
# --stall-after 5000 --stall-ms 400); a 2 s run without warm-up (so every request the
# server served is in the window) on 2 connections and 2 workers: the result's stall_ms is at
# least 90% of the stall (and not past it by more than the host's noise), the series has an
# interval inside the stall with no operation, the intervals before the stall began hold
# fewer than 5000 operations and those through it at least 5000 - 4 (the requests in
# flight), operations resume after it, and the series adds up to the run's ops. The same run
# against the plain server has no gap near that long. With --interval-ms 0 the result has no
# series. Cost: about 5 s.
. "$(dirname "$0")/../lib.sh"
need node

stall=$(free_port)
plain=$(free_port)
start_bg stall "$DRIVER" serve tcp --port "$stall" --payload 64 --stall-after 5000 --stall-ms 400
start_bg plain "$DRIVER" serve tcp --port "$plain" --payload 64
wait_port "$stall"
wait_port "$plain"
run() { # NAME PORT ARGS...
    n=$1; p=$2; shift 2
    "$DRIVER" tcp --port "$p" --payload 64 --connections 2 --workers 2 --warmup 0 --duration 2 "$@" \
        > "$T/$n.json" 2> "$T/$n.err" || fail "driver $n exited $?: $(cat "$T/$n.err")"
}
run stalled "$stall"
run calm "$plain"
run off "$plain" --duration 0.3 --interval-ms 0

echo "stalled: $(json_get "$T/stalled.json" 'JSON.stringify({ops: this.ops, stall_ms: this.stall_ms, at: this.stall_at_s, series: this.series.ops})')"
echo "calm: $(json_get "$T/calm.json" 'JSON.stringify({ops: this.ops, stall_ms: this.stall_ms})')"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const s = r.series, iv = s.interval_ms / 1000, bad = [];
if (!(r.stall_ms >= 360)) bad.push("stall_ms " + r.stall_ms + " < 90% of 400");
if (!(r.stall_ms < 400 + 250)) bad.push("stall_ms " + r.stall_ms + " far past the 400 ms stall");
if (s.ops.reduce((a, b) => a + b, 0) !== r.ops) bad.push("the series does not add up to ops");
const first = Math.floor(r.stall_at_s / iv), inside = Math.floor((r.stall_at_s + 0.2) / iv);
const after = Math.floor((r.stall_at_s + r.stall_ms / 1000) / iv) + 1;
if (s.ops[inside] !== 0) bad.push("interval " + inside + " inside the stall has " + s.ops[inside] + " ops");
const before = s.ops.slice(0, first).reduce((a, b) => a + b, 0);
const through = s.ops.slice(0, first + 1).reduce((a, b) => a + b, 0);
if (!(before < 5000 && through >= 5000 - 4))
    bad.push("the stall began at " + r.stall_at_s + " s, with " + before + ".." + through + " ops served, not at the 5000th request");
if (!(after < s.n && s.ops[after] > 0)) bad.push("no operation after the stall (interval " + after + ")");
if (bad.length) { console.error(bad.join("\n")); process.exit(1); }' "$T/stalled.json" || fail "stalled run"
assert_eq "$(json_get "$T/calm.json" 'this.stall_ms < 360')" true "plain server's longest reply gap"
assert_eq "$(json_get "$T/off.json" '[this.series, this.stall_ms].join(",")')" "," "series with --interval-ms 0"
# the knobs refuse what they cannot do, naming the flag
assert_exit 2 "$DRIVER" serve tcp --port 0 --stall-after 10 2> "$T/e1"
grep -q -- "--stall-after '10': expected together with --stall-ms" "$T/e1" || fail "stall-after alone: $(cat "$T/e1")"
assert_exit 2 "$DRIVER" tcp --grow-ns 5 2> "$T/e2"
grep -q -- "--grow-ns '5': expected only with --serve" "$T/e2" || fail "grow-ns without --serve: $(cat "$T/e2")"
assert_exit 2 "$DRIVER" tcp --interval-ms 70000 2> "$T/e3"
grep -q -- "--interval-ms" "$T/e3" || fail "interval-ms out of range: $(cat "$T/e3")"
echo "189-series-stall: ok"
