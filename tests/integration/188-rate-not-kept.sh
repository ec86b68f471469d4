#!/bin/sh
# pairbench-test: untimed
# A schedule not kept is loud: at --rate 1e8 on one connection the driver sends a handful of
# requests in its window; each run fails with "the schedule was not kept" (what was achieved
# against the 90% expected, how many were late), the terminal, report.md, report.html and
# summary.json's failures say so and compare exits 3 (before, every run was ok and only
# summary.json's not_kept counted them). A rate the driver keeps (200/s) leaves its runs ok.
# The driver alone at --rate 1e9, whose warm-up falls so far behind that no request due in the
# window is ever sent, says so (it used to blame a missing warm-up reply), on stderr and in its
# result's reason, which compare shows (it showed only "no successful operation"). report.md
# says that a fixed-rate row's latency counts from the due time (it said closed-loop only). A
# rate of 0.001/s (poisson) is refused by compare before any run (exit 2), not run to fail.
# Cost: about 10 s (a run at 1e8/s overruns its 0.3 s window by seconds, as it did before).
. "$(dirname "$0")/../lib.sh"
need node

run_rate() { # NAME RATE
    write_grid "$T/$1.grid.json" "$1" "\"protocol\": \"tcp\", \"payload\": 64, \"connections\": 1, \"rate\": $2"
    write_spec "$T/$1.spec.json" tcp "$T/$1.grid.json" '"runs": 1, "warmup": 0.1, "duration": 0.3' \
        a "$DRIVER serve tcp --port {port}" b "$DRIVER serve tcp --port {port}"
    rc=0
    "$COMPARE" run --spec "$T/$1.spec.json" --out "$T/$1" > "$T/$1.out" 2> "$T/$1.err" || rc=$?
}
run_rate fast 100000000
assert_eq "$rc" 3 "compare run at --rate 1e8: exit code ($(tail -n 2 "$T/fast.err"))"
want="the schedule was not kept"
assert_eq "$(grep -c "run failed: .*$want" "$T/fast.err")" 2 "runs failed on the terminal"
grep -q "Failed run: .*$want: .* of the --rate 1e+08 requests/s achieved" "$T/fast/report.md" ||
    fail "report.md does not say the schedule was not kept: $(grep -i 'fail' "$T/fast/report.md" | head -3)"
grep -q "$want" "$T/fast/report.html" || fail "report.html does not say it"
assert_eq "$(json_get "$T/fast/summary.json" \
    "this.rows[0].failures.filter(f => f.reason.includes('$want')).length")" 2 "summary.json failures"

run_rate slow 200
assert_eq "$rc" 0 "compare run at --rate 200: exit code ($(tail -n 2 "$T/slow.err"))"
grep -q "$want" "$T/slow.err" && fail "a kept schedule was called not kept"
# a rate whose window holds no request is refused before any run, naming the configuration
write_grid "$T/few.grid.json" few '"protocol": "tcp", "connections": 1, "rate": 0.001, "arrival": "poisson"'
write_spec "$T/few.spec.json" tcp "$T/few.grid.json" '"runs": 1, "warmup": 0.1, "duration": 0.3' \
    a "$DRIVER serve tcp --port {port}"
rc=0
"$COMPARE" run --spec "$T/few.spec.json" --out "$T/few" > /dev/null 2> "$T/few.err" || rc=$?
assert_eq "$rc" 2 "compare run at rate 0.001 poisson: exit code ($(cat "$T/few.err"))"
grep -q "rate 0.001: 0.0003 requests due in its 0.3 s window; expected at least 16.6667 requests/s" "$T/few.err" ||
    fail "the refusal does not say what was due and expected: $(cat "$T/few.err")"
[ ! -e "$T/few/runs.jsonl" ] || fail "compare ran a rate whose window holds no request"
# report.md's latency: on a row at a fixed rate it counts from the due time, not the write
grep -q "latency counts instead from each batch's due time" "$T/slow/report.md" ||
    fail "report.md describes a fixed-rate row's latency as closed-loop only"
# a rate so far past what one connection can do that the warm-up's backlog never reaches the
# window: the driver names the schedule, not a missing warm-up reply
port=$(free_port)
"$DRIVER" serve tcp --port "$port" > /dev/null 2>&1 &
srv=$!
wait_port "$port"
"$DRIVER" tcp --port "$port" --connections 1 --warmup 0.3 --duration 0.3 --rate 1e9 \
    > "$T/behind.json" 2> "$T/behind.err" && fail "driver at --rate 1e9 with an empty window exited 0"
kill "$srv"
wait "$srv" 2> /dev/null
grep -q "the --rate 1e+09 schedule fell behind in the warm-up" "$T/behind.err" ||
    fail "the empty window is not put on the schedule: $(cat "$T/behind.err")"
# the result's reason too, which is what compare shows for the run (not a bare "no successful
# operation")
json_get "$T/behind.json" 'this.reason' | grep -q "no measured batch was started: the --rate 1e+09 schedule fell behind" ||
    fail "the result's reason does not name the schedule: $(json_get "$T/behind.json" 'this.reason')"
echo "not kept: failed and said; kept: ok; behind from the warm-up: named"
