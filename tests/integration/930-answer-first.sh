#!/bin/sh
# pairbench-test: timed
# The answer first. `compare run` prints on stderr a table (header, one line per row with
# the change of each gated metric and the verdict, the outcome line) before its last lines,
# and only the run directory on stdout; summary.json has a top-level "outcome" whose counts
# add up to the rows; `compare gate` prints the same table and the directory on stderr and
# appends its Markdown to $GITHUB_STEP_SUMMARY (kept content before it, a second gate
# appended after it), and nothing is written when the variable is unset; the gate accepts
# the outputs' metric names and the old aliases. Cost: about 4 s (2 rows x 2 versions x 3
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
 "grids": ["grid.json"], "runs": 3, "warmup": 0.05, "duration": 0.2}
JSON
"$COMPARE" run --spec spec.json --out run1 > run.out 2> run.err ||
    { cat run.err >&2; fail "compare run failed"; }
assert_eq "$(cat run.out)" "run1" "stdout is only the run directory"
grep -Eq '^row +throughput +cpu_efficiency +p99_us +verdict$' run.err || fail "no table header on stderr"
grep -q '^all rows: tcp · ' run.err || fail "the values every row shares are not above the table"
assert_eq "$(grep -Ec '^(64 B|1 KiB) ' run.err)" 2 "one table line per row, named by its payload"
# each line's verdict is the row's over the headline metrics in summary.json, and the
# closing line is summary.json's outcome (the figures themselves depend on the machine)
node -e '
const fs = require("fs"), s = JSON.parse(fs.readFileSync("run1/summary.json", "utf8"));
const lines = fs.readFileSync("run.err", "utf8").split("\n").filter(l => /^(64 B|1 KiB) /.test(l));
const bad = [];
s.rows.forEach((r, i) => {
  const vs = ["throughput", "cpu_efficiency", "p99_us"].map(m => r.metrics[m].vs_baseline.slow);
  const v = vs.map(x => x.verdict);
  // an undecided metric decided nothing: the row is undecided, never "~"
  const want = r.status === "failed" ? "failed" : v.includes("regressed") ? "regressed" :
    v.includes("undecided") ? "undecided" : v.includes("improved") ? "improved" : "~";
  if (!lines[i] || !lines[i].endsWith(" " + want)) bad.push(`row ${i}: want ${want}: ${lines[i]}`);
  const ch = (r.metrics.throughput.vs_baseline.slow.change * 100).toFixed(1);
  if (!lines[i] || !lines[i].includes((ch > 0 ? "+" : "") + ch + "%")) bad.push(`row ${i}: no ${ch}%`);
});
const o = s.outcome, c = o.verdicts;
const line = `${o.overall}: ${c.regressed} regressed, ${c.improved} improved, ${c["~"]} ~ (within threshold), ` +
  `${c.undecided} undecided` + (c.incomplete ? `, ${c.incomplete} incomplete` : "") + `, ${c.failed} failed`;
if (!fs.readFileSync("run.err", "utf8").includes(line)) bad.push("no outcome line " + line);
if (bad.length) { console.log(bad.join("\n")); process.exit(1); }' || fail "table and summary.json disagree"
# the table comes before the closing line naming the report
tl=$(grep -n '^row ' run.err | cut -d: -f1); rl=$(grep -n 'runs recorded' run.err | cut -d: -f1)
[ "$tl" -lt "$rl" ] || fail "the table does not come first"
json_get run1/summary.json 'this.outcome.overall' | grep -Eqx 'regressed|improved|~|undecided|failed' ||
    fail "outcome.overall"
assert_eq "$(json_get run1/summary.json 'Object.values(this.outcome.verdicts).reduce((a,b)=>a+b,0)')" \
    "$(json_get run1/summary.json 'this.rows.length')" "outcome counts add up to the rows"

printf '# earlier step\n' > step.md
gate() { # OUT ERR ARGS...: compare gate, whose verdict (0, 1 or 4) depends on the machine
    o=$1; e=$2; shift 2
    set +e; "$COMPARE" gate "$@" > "$o" 2> "$e"; rc=$?; set -e
    case $rc in 0 | 1 | 4) ;; *) fail "gate $*: exit $rc: $(tail -3 "$e")" ;; esac
}
GITHUB_STEP_SUMMARY=$T/step.md gate g1.out g1.err --from run1 --threshold p99_us=10 --threshold throughput=5
head -n 1 step.md | grep -q '^# earlier step$' || fail "the step summary lost what was there"
grep -q '^<!-- pairbench-gate -->$' step.md || fail "no gate Markdown in the step summary"
grep -Eq '^row +throughput +p99_us +verdict$' g1.err || fail "gate: no table of the gated metrics: $(cat g1.err)"
grep -q "^compare: gate: run directory: run1$" g1.err || fail "gate: no run directory"
GITHUB_STEP_SUMMARY=$T/step.md gate g2.out g2.err --from run1 --threshold p99=10
assert_eq "$(grep -c '^<!-- pairbench-gate -->$' step.md)" 2 "a second gate appends"
env -u GITHUB_STEP_SUMMARY "$COMPARE" gate --from run1 > g3.out 2> g3.err || [ $? -ne 2 ] || fail "gate g3"
assert_eq "$(grep -c '^<!-- pairbench-gate -->$' step.md)" 2 "without the variable nothing is appended"
echo "ok: the answer first (table, outcome, step summary)"
