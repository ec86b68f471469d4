#!/bin/sh
# pairbench-test: untimed
# A fixed-rate row is counted too: its counted runs (valgrind) drop the rate, which valgrind
# cannot keep and a per-request count does not need, and send closed loop in waves (exact
# where a repeat showed the count repeats, else not exact and saying why),
# while its timed runs keep the schedule. Before, the driver refused --lockstep with --rate
# and every counted run of a fixed-rate row failed, so `compare gate` (counting by default)
# exited 3 on any fixed-rate row. Here the candidate spends 2000 rounds of --work per
# request: instructions per operation regressed, with the timed runs at 1000/s.
# Cost: about 30 s on 2 shared cores (small request counts).
. "$(dirname "$0")/../lib.sh"
need valgrind
need node
# the counted servers run under valgrind, which cannot run a sanitized driver
srv=$(valgrind_driver)
[ -n "$srv" ] || skip "no unsanitized bin/driver for the servers valgrind counts"

cat > "$T/grid.json" <<JSON
{"name": "open", "defaults": {"protocol": "tcp", "connections": 2, "payload": 64, "rate": 1000}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "baseline", "server": {"tcp": "$srv serve tcp --port {port} --payload 64"}},
   {"name": "candidate", "server": {"tcp": "$srv serve tcp --port {port} --payload 64 --work 2000"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 3, "requests": 300, "warmup_requests": 100, "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --instructions --out "$T/out" > /dev/null 2> "$T/err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/err" >&2; fail "compare run --instructions on a fixed-rate row exited $rc"; }
assert_eq "$(node -e '
const l = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const c = l.filter(x => x.kind === "instructions"), t = l.filter(x => !x.kind);
// exact, or (its repeat or its processes shown not to repeat: cost_verify.c) not exact with
// the reason said
const shown = f => f.exact === true || (f.exact === false && typeof f.reason === "string" && f.reason.length > 0);
console.log([c.length, c.every(x => x.status === "ok" && x.instructions.ops === 300 &&
  shown(x.instructions.fixed)),
  t.every(x => x.status === "ok" && x.result.rate && x.result.rate.target === 1000)].join(" "));' \
  "$T/out/runs.jsonl")" "6 true true" "counted runs exact or saying why not, timed runs at the rate"
assert_eq "$(json_get "$T/out/summary.json" '
const m = this.rows[0].metrics.instructions;
[m.vs_baseline.candidate.verdict, m.values.baseline.n, m.values.candidate.n].join(" ")')" \
    "regressed 3 3" "instructions per operation of the fixed-rate row"
echo "ok: a fixed-rate row's counted runs"
