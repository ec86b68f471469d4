#!/bin/sh
# pairbench-test: timed
# Outcomes that claim only what was decided. An A/A run of 1 round has no variance to judge
# by: every gated metric is "undecided" with reason "too few runs" (never "~"), and so is the
# row, in summary.json, the terminal, report.md, report.html (both languages) and gate.md
# (`gate --from` exits 4). A run of 3 rounds whose candidate holds every reply 2 ms is decided
# regressed on throughput (about −90%) from those 3 rounds. Cost: about 6 s.
. "$(dirname "$0")/../lib.sh"
need node
cd "$T"
cp "$DRIVER" "$T/driver"; DRV=$T/driver
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare
cat > grid.json <<'JSON'
{"name": "undecided", "defaults": {"protocol": "tcp", "connections": 1, "workers": 1, "payload": 64}}
JSON
spec() { # FILE RUNS CANDIDATE_FLAGS
    cat > "$1" <<JSON
{"versions": [
  {"name": "baseline", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}},
  {"name": "candidate", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}$3"}}],
 "grids": ["$T/grid.json"], "runs": $2, "warmup": 0.05, "duration": 0.2, "grace": 10, "probe_timeout": 20}
JSON
}

# 1. one round: undecided everywhere, never "~"
spec one.json 1 ""
rc=0; "$COMPARE" run --spec one.json --out aa > run.out 2> run.err || rc=$?
assert_eq "$rc" 0 "compare run (nothing failed): $(tail -3 run.err)"
for m in throughput cpu_efficiency p50_us p99_us rss_mib; do
    assert_eq "$(json_get aa/summary.json "this.rows[0].metrics.$m.vs_baseline.candidate.verdict + ' ' + this.rows[0].metrics.$m.vs_baseline.candidate.reason")" \
        "undecided too few runs" "$m's verdict and reason"
done
assert_eq "$(json_get aa/summary.json 'this.schema')" "pairbench.summary/2" "summary schema"
assert_eq "$(json_get aa/summary.json 'this.outcome.overall')" "undecided" "summary.json outcome.overall"
assert_eq "$(json_get aa/summary.json 'this.outcome.verdicts.undecided + " " + this.outcome.verdicts["~"]')" \
    "1 0" "summary.json outcome verdicts"
grep -q "^undecided: .*1 undecided" run.err || fail "terminal tally: $(tail -4 run.err)"
grep -q "  undecided$" run.err || fail "terminal row: $(tail -4 run.err)"
grep -q "^  throughput: too few runs" run.err || fail "terminal reason: $(tail -4 run.err)"
grep -q "  ~$" run.err && fail "the terminal says ~: $(tail -4 run.err)"
grep -q "^Undecided: 1 of 1 configurations could not be decided" aa/report.md ||
    fail "report.md: $(grep -n -i "undecided\|judged" aa/report.md)"
grep -q "| undecided (too few runs" aa/report.md || fail "report.md verdict cell: $(grep '^| ' aa/report.md | head -5)"
grep -Eq '\| ~ \|' aa/report.md && fail "report.md shows ~ in a table: $(grep -E '\| ~ \|' aa/report.md)"
grep -q "Undecided: 1 of 1 configurations could not be decided" aa/report.html || fail "report.html"
grep -q 'v-undecided' aa/report.html || fail "report.html marks no undecided verdict"
"$COMPARE" report aa --lang zh > /dev/null || fail "compare report --lang zh"
grep -q "未判定" aa/report.md || fail "report.md (zh)"
rc=0; "$COMPARE" gate --from aa > gate.out 2> gate.err || rc=$?
assert_eq "$rc" 4 "gate --from on an undecided run"
grep -q "| undecided | " aa/gate.md || fail "gate.md's Gate column: $(grep '^| tcp' aa/gate.md)"
grep -q "| ok | " aa/gate.md && fail "gate.md says ok for an undecided row"
grep -q "^\*\*Undecided.\*\*" aa/gate.md || fail "gate.md headline: $(grep '^\*\*' aa/gate.md)"

# 2. three rounds, the candidate slowed by about 90%: decided at 3 runs a side
spec three.json 3 " --delay-us 2000"
rc=0; "$COMPARE" run --spec three.json --out ab > ab.out 2> ab.err || rc=$?
assert_eq "$rc" 0 "compare run A/B: $(tail -3 ab.err)"
assert_eq "$(json_get ab/summary.json 'this.rows[0].metrics.throughput.vs_baseline.candidate.verdict')" \
    regressed "throughput at 3 runs a side, change $(json_get ab/summary.json 'this.rows[0].metrics.throughput.vs_baseline.candidate.change')"
grep -q "  regressed$" ab.err || fail "terminal row: $(tail -4 ab.err)"
echo "undecided is undecided everywhere; a large change is decided at 3 runs"
