#!/bin/sh
# pairbench-test: timed
# The full cost of a request, detected: the reference server with one extra system call per
# reply, one extra allocation per request and one extra wake-up per request (driver serve
# --extra-syscalls/--extra-allocs/--extra-wakeups 1) against the plain one, in one N-way run
# with --syscalls (ptrace-counted rounds) and instructions counted under valgrind (allocator
# calls from callgrind), the software events (context switches, page faults, CPU migrations)
# read at the window marks of every timed run. Each candidate is regressed on exactly its
# metric and `~` on the other new ones; the one exception is stated: a wake-up is a futex
# call, so the wake-up candidate's system calls rise too (by futex alone). The per-name
# breakdown names getppid, the allocation breakdown names srv_extra_request. Bad settings
# are refused naming the key.
# Cost: about 60 s on 2 shared cores (12 timed, 12 traced, 12 valgrind rounds).
. "$(dirname "$0")/../lib.sh"
need valgrind
need node

serve_driver=$(valgrind_driver)
[ -n "$serve_driver" ] || skip "no plain build of the driver to run under valgrind"
srv="$serve_driver serve tcp --port {port}"
echo '{"name": "t", "defaults": {"protocol": "tcp", "connections": 1}}' > "$T/grid.json"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "plain", "server": {"tcp": "$srv"}},
              {"name": "sys", "server": {"tcp": "$srv --extra-syscalls 1"}},
              {"name": "alloc", "server": {"tcp": "$srv --extra-allocs 1"}},
              {"name": "wake", "server": {"tcp": "$srv --extra-wakeups 1"}}],
 "grids": ["$T/grid.json"], "runs": 3, "warmup": 0.1, "duration": 0.3, "syscalls": true,
 "instructions": {"source": "valgrind", "runs": 3, "requests": 1000, "warmup_requests": 100, "idle_s": 0.1}}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/o" > /dev/null 2> "$T/err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/err" >&2; fail "compare run exited $rc"; }
grep -q "counting the servers' system calls with ptrace: 12 traced runs" "$T/err" || fail "no word of the traced runs: $(tail -5 "$T/err")"

# every verdict of the new metrics, per candidate
got=$(json_get "$T/o/summary.json" '
const m = this.rows[0].metrics, keys = ["syscalls", "allocations", "context_switches", "page_faults", "cpu_migrations"];
["sys", "alloc", "wake"].map(c => c + ":" + keys.map(k => m[k] ? m[k].vs_baseline[c].verdict : "none").join(",")).join(" ")')
# (a wake-up may move the waking thread to the other CPU: the wake-up candidate's migrations
# are ~ or, where they rose past the floor on a loaded host, undecided; never a decided verdict)
case $got in
    "sys:regressed,~,~,~,~ alloc:~,regressed,~,~,~ wake:regressed,~,regressed,~,"[~u]*) ;;
    *) assert_eq "$got" "sys:regressed,~,~,~,~ alloc:~,regressed,~,~,~ wake:regressed,~,regressed,~,~" "verdicts of the new metrics" ;;
esac
case $got in *"wake:regressed,~,regressed,~,~" | *"wake:regressed,~,regressed,~,undecided") ;;
    *) fail "the wake-up candidate's migrations: $got" ;; esac
# the figures: +1 getppid per reply exactly; +2 allocator calls (malloc and free); the
# wake-up's system calls are futex alone; at least one more context switch per request
got=$(json_get "$T/o/summary.json" '
const m = this.rows[0].metrics, r = x => Math.round(x * 100) / 100;
const top = (k, c, f) => m[k].vs_baseline[c][f][0];
const s = top("syscalls", "sys", "by_name"), a = top("allocations", "alloc", "functions"), w = top("syscalls", "wake", "by_name");
const cs = m.context_switches.values;
[s.name, r(s.delta), a.name, r(a.delta), w.name, m.syscalls.vs_baseline.wake.by_name.filter(x => Math.abs(x.delta) > 0.05 && x.name !== "futex").length,
 cs.wake.median - cs.plain.median > 1, Object.keys(m.syscalls.by_name).length > 0].join(" ")')
assert_eq "$got" "getppid 1 srv_extra_request 2 futex 0 true true" "breakdowns of the changes"
# the lines: kind syscalls with ptrace as source, every timed run with its software events
got=$(node -e '
const l = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const sc = l.filter(x => x.kind === "syscalls" && x.status === "ok" && x.syscalls.source === "ptrace" && x.syscalls.ops > 0);
const t = l.filter(x => !x.kind && x.server.window.perf && x.server.window.perf.source === "perf_event_open");
const al = l.filter(x => x.kind === "instructions" && x.allocations && x.allocations.per_op > 0);
console.log(sc.length, t.length, al.length);' "$T/o/runs.jsonl")
assert_eq "$got" "12 12 12" "syscalls lines, timed runs with perf, allocation figures"

# bad settings are refused, naming the key
sed 's/"syscalls": true/"syscalls": {"runs": 0}/' "$T/spec.json" > "$T/bad.json"
assert_exit 2 "$COMPARE" run --spec "$T/bad.json" --out "$T/bad"
"$COMPARE" run --spec "$T/bad.json" --out "$T/bad2" 2>&1 | grep -q 'syscalls.runs: expected an integer from 1 to 100' || fail "bad runs not named"
sed 's/"syscalls": true/"syscalls": {"rounds": 2}/' "$T/spec.json" > "$T/bad3.json"
"$COMPARE" run --spec "$T/bad3.json" --out "$T/bad3" 2>&1 | grep -q "syscalls.rounds: unknown key 'rounds'" || fail "unknown key not named"
# the driver refuses a bad knob, naming it
assert_exit 2 "$DRIVER" serve tcp --port 1 --extra-wakeups 101
