#!/bin/sh
# pairbench-test: untimed
# Estimated cycles from callgrind's cache simulation (--cache-sim): the reference server
# against itself with 8 extra allocations per request, instructions counted under valgrind
# with --cache-sim=yes. Each counted line has estimated_cycles whose per_op is exactly
# L1 hits + 5 × LL hits + 35 × RAM accesses of its own breakdown, with L1 and LL misses per
# operation; the metric estimated_cycles is in summary.json (by_part, verdict regressed for
# the candidate, `~` for the A/A twin), summary.csv, report.md and report.html with the
# formula in English and Chinese; `gate --threshold estimated_cycles=PCT` acts on it; the spec
# key works alone; a bad "cache_sim" value and "source": "counters" are refused naming the key.
# Cost: about 40 s (3 timed and 9 valgrind rounds, short).
. "$(dirname "$0")/../lib.sh"
need valgrind
need node

serve_driver=$(valgrind_driver)
[ -n "$serve_driver" ] || skip "no plain build of the driver to run under valgrind"
srv="$serve_driver serve tcp --port {port}"
echo '{"name": "t", "defaults": {"protocol": "tcp", "connections": 1}}' > "$T/grid.json"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "plain", "server": {"tcp": "$srv"}},
              {"name": "twin", "server": {"tcp": "$srv"}},
              {"name": "alloc", "server": {"tcp": "$srv --extra-allocs 8"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"source": "valgrind", "runs": 3, "requests": 400, "warmup_requests": 50, "idle_s": 0.1}}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --cache-sim --out "$T/o" > /dev/null 2> "$T/err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/err" >&2; fail "compare run --cache-sim exited $rc"; }

# the lines: the formula holds on every counted line's own figures
got=$(node -e '
const l = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const c = l.filter(x => x.kind === "instructions" && x.status === "ok");
const good = c.filter(x => { const e = x.estimated_cycles, p = e && e.by_part; if (!p) return false;
  return Math.abs(e.per_op - (p["L1 hits"] + p["5 × LL hits"] + p["35 × RAM accesses"])) < 1e-6 &&
    e.l1_misses_per_op === p["L1 misses"] && e.ll_misses_per_op === p["LL misses"] &&
    e.ll_misses_per_op <= e.l1_misses_per_op && e.per_op >= x.instructions.per_op &&
    e.formula === "L1 hits + 5 × LL hits + 35 × RAM accesses"; });
console.log(c.length, good.length);' "$T/o/runs.jsonl")
assert_eq "$got" "9 9" "counted lines, lines whose estimated cycles follow the formula"
got=$(json_get "$T/o/summary.json" '
const m = this.rows[0].metrics.estimated_cycles;
[m.unit, m.threshold_pct, m.vs_baseline.twin.verdict, m.vs_baseline.alloc.verdict,
 m.vs_baseline.alloc.by_part[0].name, Object.keys(m.by_part).length].join(" ")')
assert_eq "$got" "cycles/op 5 ~ regressed L1 hits 5" "estimated_cycles in summary.json"
assert_eq "$(grep -c ',estimated_cycles,"\(plain\|twin\|alloc\)",' "$T/o/summary.csv")" 3 "estimated_cycles lines in summary.csv"
grep -q '^### Server estimated cycles per operation (cache simulation)' "$T/o/report.md" ||
    fail "report.md has no estimated cycles section"
grep -q 'L1 hits + 5 × LL hits + 35 × RAM accesses' "$T/o/report.md" || fail "report.md does not state the formula"
grep -q 'id="full-estimated_cycles"' "$T/o/report.html" || fail "report.html has no estimated cycles table"
"$COMPARE" report --lang zh "$T/o" > /dev/null 2>&1 || fail "compare report --lang zh failed"
grep -q '估算周期 = L1 命中 + 5 × LL 命中 + 35 × 内存访问' "$T/o/report.md" || fail "the Chinese report does not state the formula"

# the gate acts on it: a threshold above the change lets the candidate through on it
rc=0
"$COMPARE" gate --from "$T/o" --threshold estimated_cycles=1 > "$T/g1" 2>&1 || rc=$?
assert_eq "$rc" 1 "gate with estimated_cycles=1%"
grep -q 'est. cycles/op' "$T/g1" || fail "the gate does not name estimated cycles: $(cat "$T/g1")"
rc=0
"$COMPARE" gate --from "$T/o" --threshold estimated_cycles=900 > "$T/g2" 2>&1 || rc=$?
assert_eq "$rc" 0 "gate with estimated_cycles=900% only: $(tail -3 "$T/g2")"

# the spec key alone turns it on (one version, one round); bad values are refused
sed -e 's/"runs": 3, "requests": 400/"runs": 1, "requests": 200/' -e 's/"grids"/"cache_sim": true, "grids"/' \
    -e '/"twin"\|"alloc"/d' -e 's/}},$/}}],/' "$T/spec.json" > "$T/one.json"
"$COMPARE" run --spec "$T/one.json" --out "$T/one" > /dev/null 2> "$T/one.err" ||
    fail "the spec's cache_sim run failed: $(tail -3 "$T/one.err")"
got=$(json_get "$T/one/summary.json" 'this.rows[0].metrics.estimated_cycles.values.plain.median > 0')
assert_eq "$got" "true" "estimated cycles from the spec key"
sed 's/"cache_sim": true/"cache_sim": "yes"/' "$T/one.json" > "$T/bad.json"
assert_exit 2 "$COMPARE" run --spec "$T/bad.json" --out "$T/bad" 2> "$T/bad.err"
grep -q 'bad.json: \$.cache_sim: expected true or false' "$T/bad.err" || fail "unclear error: $(cat "$T/bad.err")"
sed 's/"source": "valgrind"/"source": "counters"/' "$T/one.json" > "$T/bad2.json"
assert_exit 2 "$COMPARE" run --spec "$T/bad2.json" --out "$T/bad2" 2> "$T/bad2.err"
grep -q '"counters" with cache_sim' "$T/bad2.err" || fail "unclear error: $(cat "$T/bad2.err")"
echo "ok: $(json_get "$T/o/summary.json" 'const v = this.rows[0].metrics.estimated_cycles.values; v.plain.median + " -> " + v.alloc.median') estimated cycles/op"
