#!/bin/sh
# pairbench-test: untimed
# Outcomes that claim only what was decided: an A/A run of 2 rounds cannot reach the evidence
# level (every gated metric is "~" with reason "too few runs"), so `run` reports the outcome
# "inconclusive" — never "unchanged" — in summary.json, the terminal, report.md and
# report.html, and `gate --from` exits 4 with the same word in gate.md's Gate column.
. "$(dirname "$0")/../lib.sh"
need node
cd "$T"
cp "$DRIVER" "$T/driver"; DRV=$T/driver
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare
cat > grid.json <<'JSON'
{"name": "undecided", "defaults": {"protocol": "tcp", "connections": 1, "workers": 1, "payload": 64}}
JSON
cat > spec.json <<JSON
{"versions": [
  {"name": "baseline", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}},
  {"name": "candidate", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 2, "warmup": 0.05, "duration": 0.2, "grace": 10, "probe_timeout": 20}
JSON
rc=0; "$COMPARE" run --spec spec.json --out aa > run.out 2> run.err || rc=$?
assert_eq "$rc" 0 "compare run (nothing failed): $(tail -3 run.err)"
assert_eq "$(json_get aa/summary.json 'this.rows[0].metrics.throughput.vs_baseline.candidate.reason')" \
    "too few runs" "the throughput verdict's reason"
assert_eq "$(json_get aa/summary.json 'this.outcome.overall')" "inconclusive" "summary.json outcome.overall"
assert_eq "$(json_get aa/summary.json 'this.outcome.verdicts.inconclusive + " " + this.outcome.verdicts.unchanged')" \
    "1 0" "summary.json outcome verdicts"
grep -q "^inconclusive: .*1 inconclusive" run.err || fail "terminal tally: $(tail -4 run.err)"
grep -q "  inconclusive$" run.err || fail "terminal row: $(tail -4 run.err)"
grep -q "  unchanged$" run.err && fail "the terminal says unchanged: $(tail -4 run.err)"
grep -q "^Inconclusive: 1 of 1 configurations could not be decided" aa/report.md ||
    fail "report.md: $(grep -n -i "inconclusive\|judged" aa/report.md)"
grep -q "Inconclusive: 1 of 1 configurations could not be decided" aa/report.html || fail "report.html"
"$COMPARE" report aa --lang zh > /dev/null || fail "compare report --lang zh"
grep -q "无法判定" aa/report.md || fail "report.md (zh)"
rc=0; "$COMPARE" gate --from aa > gate.out 2> gate.err || rc=$?
assert_eq "$rc" 4 "gate --from on an undecided run"
grep -q "| inconclusive | " aa/gate.md || fail "gate.md's Gate column: $(grep '^| tcp' aa/gate.md)"
grep -q "| ok | " aa/gate.md && fail "gate.md says ok for an undecided row"
echo "undecided is inconclusive everywhere"
