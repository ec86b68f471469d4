#!/bin/sh
# pairbench-test: untimed
# A run that did not measure what it claims fails, and still reports what it measured:
#  - a server that goes silent 0.3 s into a 1 s window: elapsed_s is the whole window (not
#    the 0.3 s until the last reply), throughput counts it, the unanswered requests are
#    timeouts, status "failed", exit 3, JSON on stdout;
#  - under 'ulimit -n 64', 200 configured connections cannot all be held: status "failed",
#    the reason names held/configured, exit 3;
#  - a healthy run of the same shape is "ok", exit 0, held = configured;
#  - PAIRBENCH_WINDOW_FD gets exactly "start NS\n" then "end NS\n", in that order, the
#    window's clock times at least the duration apart.
# Cost: about 4 s.
. "$(dirname "$0")/../lib.sh"
need node

# 1. the stalling server
node "$TOP/tests/peers/stall_echo.js" 300 > "$T/peer.out" 2> "$T/peer.err" &
PIDS="$PIDS $!"
i=0
until grep -q ready "$T/peer.out" 2>/dev/null; do
    [ $i -lt 100 ] || fail "stall_echo.js not ready: $(cat "$T/peer.err")"
    sleep 0.1; i=$((i + 1))
done
port=$(head -n 1 "$T/peer.out")
rc=0
"$DRIVER" tcp --port "$port" --connections 2 --warmup 0 --duration 1 --timeout 0.5 \
    > "$T/stall.json" 2> "$T/stall.err" || rc=$?
assert_eq "$rc" 3 "exit code of a run whose server stalled ($(cat "$T/stall.err"))"
# one node call checks everything (each call costs a node start-up)
expect_json() { # FILE JS-EXPRESSIONS-JOINED-BY-&&-EACH-A-LINE
    got=$(node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const bad = process.argv[2].split("\n").filter((e) => e.trim() && !(function () { return eval(e); }).call(d));
console.log(bad.length ? "failed: " + bad.join(" | ") + " in " + JSON.stringify(d) : "ok");
' "$1" "$2")
    [ "$got" = ok ] || fail "$1: $got"
}
# the whole window: 1 s, not the 0.3 s until the last reply (batches answered late could only
# extend it); throughput = ops / elapsed_s; the unanswered requests are timeouts, named in
# the reason
expect_json "$T/stall.json" '
this.status === "failed"
this.window_s === 1
this.elapsed_s >= this.window_s
Math.abs(this.throughput - this.ops / this.elapsed_s) <= 1
this.errors.timeout > 0 && /requests timed out/.test(this.reason)
typeof this.first_error === "string" && this.first_error.length > 0
this.connections.configured === 2 && this.connections.held === 2'
grep -q '^driver: the run failed: ' "$T/stall.err" || fail "no failure line on stderr"

# 2. fewer descriptors than connections, against the reference server in another process
sport=$(free_port)
start_bg serve "$DRIVER" serve tcp --port "$sport" --payload 64
wait_port "$sport"
rc=0
sh -c 'ulimit -n 64 && exec "$@"' sh "$DRIVER" tcp --port "$sport" --connections 200 \
    --workers 2 --warmup 0.1 --duration 0.3 --timeout 1 > "$T/fd.json" 2> "$T/fd.err" || rc=$?
assert_eq "$rc" 3 "exit code with 200 connections under ulimit -n 64 ($(tail -n 1 "$T/fd.err"))"
expect_json "$T/fd.json" '
this.status === "failed"
this.connections.configured === 200 && this.connections.held < 64
this.reason.includes("held " + this.connections.held + " of 200 connections")
/Too many open files/.test(this.first_error)'

# 3. a healthy run, with window marks on fd 9
rc=0
PAIRBENCH_WINDOW_FD=9 "$DRIVER" tcp --port "$sport" --connections 4 --workers 2 --warmup 0.2 \
    --duration 0.5 > "$T/ok.json" 2> "$T/ok.err" 9> "$T/ok.marks" || rc=$?
assert_eq "$rc" 0 "exit code of a healthy run ($(cat "$T/ok.err"))"
expect_json "$T/ok.json" '
this.status === "ok" && this.reason === null && this.first_error === null
this.connections.held === 4 && this.connections.configured === 4'
# the marks, once each, in order, their times (ns) at least the 0.5 s window apart
assert_eq "$(awk '{ printf "%s,", $1 }' "$T/ok.marks")" "start,end," "marks of a timed run"
awk 'NR == 1 { t = $2 } NR == 2 { exit !($2 - t >= 0.5e9 && NF == 2) } END { exit NR != 2 }' \
    "$T/ok.marks" || fail "the marks' times: $(cat "$T/ok.marks")"
# colocated (--serve) with --requests: the marks go around the counted requests
rc=0
PAIRBENCH_WINDOW_FD=9 "$DRIVER" tcp --serve --requests 2000 --warmup 0.1 --connections 2 \
    > "$T/serve.json" 2> "$T/serve.err" 9> "$T/serve.marks" || rc=$?
assert_eq "$rc" 0 "exit code of a --serve run ($(cat "$T/serve.err"))"
assert_eq "$(awk '{ printf "%s,", $1 }' "$T/serve.marks")" "start,end," \
    "marks of a --serve --requests run"
# the driver takes the variable out of its environment (children never see it) and refuses
# a descriptor that is not open
rc=0
PAIRBENCH_WINDOW_FD=57 "$DRIVER" tcp --port "$sport" --duration 0.1 --warmup 0 > /dev/null \
    2> "$T/badfd.err" || rc=$?
assert_eq "$rc" 2 "exit code with PAIRBENCH_WINDOW_FD not open"
grep -q "PAIRBENCH_WINDOW_FD '57'" "$T/badfd.err" || fail "message: $(cat "$T/badfd.err")"
echo "ok: stalls, lost connections and marks"
