#!/bin/sh
# pairbench-test: untimed
# The virtual clock of counted servers (preload/clock.c, docs/statistics.md "Exact counts"):
# redis-server started with the interposer and PAIRBENCH_CLOCK=virtual:10000 answers TIME with
# a clock that starts on a whole second and advances by the requests it served, not by the
# real second slept between two TIMEs, and a SIGTERM (a wait interrupted: the clock advances
# by its timeout, so serverCron runs) still shuts it down at once. Counted: two versions of one
# redis-server, one seed, count the same window instructions to the instruction, and the
# record says the clock was virtual with its quantum; PAIRBENCH_CLOCK=real in the environment
# turns it off, and the record says "real".
# Cost: about 30 s on 2 shared cores (small request counts).
. "$(dirname "$0")/../lib.sh"
need redis-server
need redis-cli
need valgrind
need node

lib=$(dirname "$COMPARE")/libpairbench-seed.so
[ -r "$lib" ] || fail "no interposer beside compare: $lib"

# the clock itself, without valgrind
port=$(free_port)
before=$(date +%s)
PAIRBENCH_SEED=1 PAIRBENCH_SEED_LOG="$T/seed.log" PAIRBENCH_CLOCK=virtual:10000 LD_PRELOAD="$lib" \
    start_bg redis redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$T"
rpid=$LAST_PID
wait_port "$port" || fail "redis-server with the interposer did not listen"
t1=$(redis-cli -p "$port" TIME | tr '\n' ' ')
sleep 1
t2=$(redis-cli -p "$port" TIME | tr '\n' ' ')
after=$(date +%s)
# both read less than 0.1 s of virtual time after a whole second, the same second: the real
# second the server started in (the clock starts there), so between the seconds read before
# its start and after the two TIMEs
set -- $t1 $t2
[ "$1" = "$3" ] || fail "virtual TIME moved a second over one real second: '$t1' then '$t2'"
[ "$2" -lt 100000 ] && [ "$4" -lt 100000 ] && [ "$4" -gt "$2" ] ||
    fail "virtual TIME: expected a few wake-ups' microseconds after a whole second, rising; got '$t1' then '$t2'"
[ "$before" -le "$1" ] && [ "$1" -le "$after" ] ||
    fail "virtual TIME $1 is not the second the server started in (between $before and $after)"
grep -q "^C $rpid 10000 1000 2000$" "$T/seed.log" || fail "no clock line in the interposer's log: $(cat "$T/seed.log")"
kill "$rpid"
i=0
while kill -0 "$rpid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$rpid" 2>/dev/null && fail "redis-server with the virtual clock did not stop on SIGTERM within 5 s"
grep -q 'ready to exit' "$T/redis.out" || fail "redis-server did not shut down cleanly: $(tail -3 "$T/redis.out")"

# counted: two versions of one binary, one seed
srv="redis-server --port {port} --bind 127.0.0.1 --save '' --appendonly no --dir {dir}"
echo '{"name": "set", "defaults": {"protocol": "redis", "command": "SET", "keyspace": 100000}}' > "$T/grid.json"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "a", "server": {"redis": "$srv"}}, {"name": "b", "server": {"redis": "$srv"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 1, "requests": 1500, "warmup_requests": 300, "idle_s": 0.3}}
JSON
counted() { # dir -> per counted line: version|status|exact|clock kind|quantum|window instructions|method
    node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
for (const x of l) { const i = x.instructions || {}, f = i.fixed || {}, c = f.clock || {};
  console.log([x.version, x.status, f.exact, c.kind, c.quantum_ns, i.window_instructions, i.idle_method].join("|")); }' "$1" | sort
}
# one run, no retry: the counts are exact or the test fails
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/v" > /dev/null 2> "$T/v.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/v.err" >&2; fail "compare run (virtual clock) exited $rc"; }
counted "$T/v" > "$T/v.lines"
a=$(sed -n 1p "$T/v.lines") b=$(sed -n 2p "$T/v.lines")
case $a in "a|ok|true|virtual|10000|"*"|phase") ;; *) fail "version a: expected exact, virtual clock of 10000 ns, idle by phase; got '$a'" ;; esac
assert_eq "${b#b}" "${a#a}" "the two versions' counted lines (one binary, one seed, virtual clock)"
grep -q 'virtual clock (10 µs per event-loop wake-up' "$T/v/report.md" ||
    fail "report.md does not name the virtual clock: $(grep -n 'seed pair' "$T/v/report.md")"

# the real clock, asked for by the environment
rc=0
PAIRBENCH_CLOCK=real "$COMPARE" run --spec "$T/spec.json" --out "$T/r" > /dev/null 2> "$T/r.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/r.err" >&2; fail "compare run (real clock) exited $rc"; }
# on the real clock a repeat of the seed may differ past its tolerance (redis' timers follow
# real time): such a line is not exact and says so, and no seed pairs (nor clock) are shown
counted "$T/r" > "$T/r.lines"
[ "$(grep -c '^[ab]|ok|[a-z]*|real||' "$T/r.lines")" = 2 ] ||
    fail "PAIRBENCH_CLOCK=real: expected both counted with the real clock; got '$(cat "$T/r.lines")'"
not_exact=$(grep -c '^[ab]|ok|false|' "$T/r.lines") || not_exact=0
if [ "$not_exact" = 0 ]; then
    grep -q 'real clock (time-driven work follows' "$T/r/report.md" ||
        fail "report.md does not name the real clock"
else
    repeats=$(grep -c '"reason":"a repeat of seed 1 counted' "$T/r/runs.jsonl") || repeats=0
    assert_eq "$repeats" "$not_exact" "real-clock lines not exact for a differing repeat"
fi
echo ok
