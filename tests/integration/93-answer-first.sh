#!/bin/sh
# The answer first. `compare run` prints on stderr a table (header, one line per row with
# the change of each gated metric and the verdict, the outcome line) before its last lines,
# and only the run directory on stdout; summary.json has a top-level "outcome" whose counts
# add up to the rows; `compare gate` prints the same table and the directory on stderr and
# appends its Markdown to $GITHUB_STEP_SUMMARY (kept content before it, a second gate
# appended after it), and nothing is written when the variable is unset; the gate accepts
# the outputs' metric names and the old aliases. Cost: about 3 s (2 rows x 2 versions x 2
# rounds of 0.2 s against the reference TCP server with and without a 300 us delay).
. "$(dirname "$0")/../lib.sh"
cd "$T"
cat > grid.json <<JSON
{"name": "tcp-answer", "defaults": {"protocol": "tcp", "connections": 2, "window": 4},
 "axes": {"payload": [64, 1024]}}
JSON
cat > spec.json <<JSON
{"versions": [
   {"name": "base", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
   {"name": "slow", "server": {"tcp": "$DRIVER serve tcp --port {port} --delay-us 300"}}],
 "grids": ["grid.json"], "runs": 2, "warmup": 0.05, "duration": 0.2}
JSON
"$COMPARE" run --spec spec.json --out run1 > run.out 2> run.err ||
    { cat run.err >&2; fail "compare run failed"; }
assert_eq "$(cat run.out)" "run1" "stdout is only the run directory"
grep -Eq '^row +throughput +cpu_efficiency +p99_us +verdict$' run.err || fail "no table header on stderr"
assert_eq "$(grep -c '^tcp · ' run.err)" 2 "one table line per row"
grep -q '^tcp · 64 B · window4 · 2 clients .* regressed$' run.err ||
    fail "the delayed row is not shown regressed: $(grep '^tcp' run.err)"
grep -Eq '^regressed: 2 regressed, 0 improved' run.err || fail "no outcome line: $(cat run.err)"
# the table comes before the closing line naming the report
tl=$(grep -n '^row ' run.err | cut -d: -f1); rl=$(grep -n 'runs recorded' run.err | cut -d: -f1)
[ "$tl" -lt "$rl" ] || fail "the table does not come first"
assert_eq "$(json_get run1/summary.json 'this.outcome.overall')" regressed "outcome.overall"
assert_eq "$(json_get run1/summary.json 'Object.values(this.outcome.verdicts).reduce((a,b)=>a+b,0)')" \
    "$(json_get run1/summary.json 'this.rows.length')" "outcome counts add up to the rows"

printf '# earlier step\n' > step.md
GITHUB_STEP_SUMMARY=$T/step.md assert_exit 1 "$COMPARE" gate --from run1 --threshold p99_us=10 \
    --threshold throughput=5 > g1.out 2> g1.err
head -n 1 step.md | grep -q '^# earlier step$' || fail "the step summary lost what was there"
grep -q '^<!-- pairbench-gate -->$' step.md || fail "no gate Markdown in the step summary"
grep -Eq '^row +throughput +p99_us +verdict$' g1.err || fail "gate: no table of the gated metrics: $(cat g1.err)"
grep -q "^compare: gate: run directory: run1$" g1.err || fail "gate: no run directory"
GITHUB_STEP_SUMMARY=$T/step.md assert_exit 1 "$COMPARE" gate --from run1 --threshold p99=10 > g2.out 2> g2.err
assert_eq "$(grep -c '^<!-- pairbench-gate -->$' step.md)" 2 "a second gate appends"
env -u GITHUB_STEP_SUMMARY "$COMPARE" gate --from run1 > g3.out 2> g3.err || true
assert_eq "$(grep -c '^<!-- pairbench-gate -->$' step.md)" 2 "without the variable nothing is appended"
echo "ok: the answer first (table, outcome, step summary)"
