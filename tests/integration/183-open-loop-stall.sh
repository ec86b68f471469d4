#!/bin/sh
# pairbench-test: timed
# Fixed-rate (open-loop) load sees what a closed loop hides. Against the reference server
# stalled 50 ms in every 1000 ms (driver serve --stall 50/1000), a closed loop sends nothing
# while the server is stalled, so only the few requests in flight wait and its P99 misses the
# stalls; at --rate 2000 requests keep coming due during a stall and their latency counts from
# their due time, so about 5% of them wait up to 50 ms and the P99 shows it (~40 ms). The
# achieved rate is within 1% of the target, the result says how well the schedule was kept,
# and the knobs refuse bad values (exit 2) naming the flag or key.
. "$(dirname "$0")/../lib.sh"
need node

port=$(free_port)
start_bg stall "$DRIVER" serve tcp --port "$port" --payload 64 --stall 50/1000
plain=$(free_port)
start_bg plain "$DRIVER" serve tcp --port "$plain" --payload 64
wait_port "$port"
wait_port "$plain"
grep -q 'stall 50/1000' "$T/stall.err" || fail "serve does not say it stalls: $(cat "$T/stall.err")"

run() { # NAME PORT ARGS...
    n=$1; p=$2; shift 2
    "$DRIVER" tcp --port "$p" --payload 64 --connections 2 --warmup 0.3 --duration 3 "$@" \
        > "$T/$n.json" 2> "$T/$n.err" || fail "driver $n exited $?: $(cat "$T/$n.err")"
}
run closed "$port"
run open "$port" --rate 2000
run poisson "$port" --rate 2000 --arrival poisson
run calm "$plain" --rate 2000

for n in closed open poisson calm; do
    echo "$n: $(json_get "$T/$n.json" 'JSON.stringify({tput: this.throughput, p50: this.latency_us.p50, p99: this.latency_us.p99, p9999: this.latency_us.p9999, rate: this.rate})')"
done
c99=$(json_get "$T/closed.json" 'this.latency_us.p99')
o99=$(json_get "$T/open.json" 'this.latency_us.p99')
q99=$(json_get "$T/poisson.json" 'this.latency_us.p99')
k99=$(json_get "$T/calm.json" 'this.latency_us.p99')
# closed loop: the stalls hide (a few batches per connection wait; 1% of ~100k do not)
assert_eq "$(node -e "console.log($c99 < 10000)")" true "closed-loop p99 ${c99}us shows the stalls"
# open loop: 5% of the requests fall in a stall, the slowest fifth of them wait 40-50 ms
# (at most 60 ms plus however long the driver itself was descheduled: rate.max_lag_us; on a
# loaded machine that was once 134 ms)
for n in open poisson; do
    v=$(json_get "$T/$n.json" 'this.latency_us.p99')
    lag=$(json_get "$T/$n.json" 'this.rate.max_lag_us')
    assert_eq "$(node -e "console.log($v >= 25000 && $v <= 60000 + $lag)")" true \
        "$n: fixed-rate p99 ${v}us: expected the 50 ms stalls (25-60 ms, + max lag ${lag}us)"
done
assert_eq "$(node -e "console.log($o99 > 2 * $k99)")" true \
    "stalled fixed-rate p99 ${o99}us not above twice the unstalled ${k99}us"
assert_eq "$(json_get "$T/open.json" 'this.latency_us.max >= 40000 && this.latency_us.p9999 >= 40000')" true \
    "fixed-rate max/p99.99 below 40 ms"
# the schedule: 2000/s for 3 s, achieved within 1% (the server sustains it; a Poisson count
# over 3 s varies by 1.3% (sqrt(6000)/6000) by itself: within 5%), and reported
for n in open poisson calm; do
    tol=0.01; [ "$n" = poisson ] && tol=0.05
    assert_eq "$(json_get "$T/$n.json" "Math.abs(this.rate.achieved / this.rate.target - 1) <= $tol")" true \
        "$n: achieved $(json_get "$T/$n.json" 'this.rate.achieved') of 2000/s"
    assert_eq "$(json_get "$T/$n.json" 'const r = this.rate; r.target === 2000 && r.sent > 0 && r.late <= r.sent && r.late_after_us === 1000 && (r.late > 0 ? r.max_lag_us >= 1000 : r.max_lag_us <= 1000) && r.kept === (r.achieved >= 0.99 * r.target && r.late <= 0.01 * r.sent) && this.config.rate === 2000')" true \
        "$n: rate object $(json_get "$T/$n.json" 'this.rate')"
    assert_eq "$(json_get "$T/$n.json" 'this.status')" ok "$n status"
done
assert_eq "$(json_get "$T/poisson.json" 'this.rate.arrival + " " + this.config.arrival')" "poisson poisson" "arrival recorded"
# the latencies count from the due time: every request waits at least its round trip, and the
# closed loop's result has no rate object
assert_eq "$(json_get "$T/closed.json" 'this.rate === undefined && this.config.rate === undefined')" true "closed loop has no rate"
assert_eq "$(json_get "$T/open.json" 'this.latency_us.rel_error')" 0.004 "stated relative error"

# the colocated server stalls too
"$DRIVER" tcp --serve --stall 100/400 --rate 500 --warmup 0 --duration 1.2 > "$T/s.json" 2> "$T/s.err" \
    || fail "--serve --stall: $(cat "$T/s.err")"
assert_eq "$(json_get "$T/s.json" 'this.latency_us.p99 >= 50000 && this.config.stall === "100/400"')" true \
    "--serve --stall 100/400: p99 $(json_get "$T/s.json" 'this.latency_us.p99')"

# bad values: exit 2, naming the flag or key and what was expected
bad() { # TEXT ARGS...
    text=$1; shift
    assert_exit 2 "$@" > /dev/null 2> "$T/bad.err"
    grep -q -- "$text" "$T/bad.err" || fail "'$*': message '$(cat "$T/bad.err")' lacks '$text'"
}
bad "flag '--stall' value '50/50'" "$DRIVER" serve tcp --port 0 --stall 50/50
bad "MS/PERIOD_MS" "$DRIVER" serve tcp --port 0 --stall fifty
bad "expected only with --serve" "$DRIVER" tcp --port "$plain" --stall 10/100
bad "expected only with --rate" "$DRIVER" tcp --port "$plain" --arrival poisson
bad "flag '--rate' value '-5'" "$DRIVER" tcp --port "$plain" --rate -5
bad "uniform or poisson" "$DRIVER" tcp --port "$plain" --rate 10 --arrival bursty
echo '{"rate": "fast"}' > "$T/bad.json"
bad "key 'rate' value '\"fast\"'" "$DRIVER" tcp --port "$plain" --config "$T/bad.json"
echo "ok: closed-loop p99 ${c99}us, fixed-rate p99 ${o99}us (poisson ${q99}us, no stall ${k99}us)"
