#!/bin/sh
# pairbench-test: timed
# Too few runs end to end: one and two runs a side on identical versions never exit 1; the gate
# exits 4 and says "undecided"; with one run a side there is no variance to judge by ("too few
# runs"), and summary.json, report.md and report.html say so in English and Chinese; with two,
# the test's own degrees of freedom are stated and the disjoint-ranges chance is 2/6, never
# 2/252. Cost: 6 runs of 0.3 s, about 8 s.
. "$(dirname "$0")/../lib.sh"
need node
cd "$T"
cp "$DRIVER" "$T/driver"; DRV=$T/driver
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare
cat > grid.json <<'JSON'
{"name": "floor", "defaults": {"protocol": "tcp", "connections": 1, "workers": 1, "payload": 64}}
JSON
cat > same.json <<JSON
{"versions": [
  {"name": "baseline", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}},
  {"name": "candidate", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}}],
 "grids": ["grid.json"], "warmup": 0.1, "duration": 0.3, "grace": 10, "probe_timeout": 20}
JSON
for n in 1 2; do
    assert_exit 4 "$COMPARE" gate --spec same.json --budget 0 --no-instructions --runs $n --out r$n > r$n.out 2> r$n.err
    # (the first undecided gated metric: with two runs a throughput whose bad end is already
    # inside its threshold passes the gate, bounded, and another metric leads the reason)
    grep -q "compare: gate: exit 4: undecided: 'tcp · 64 B · window1 · 1 client' [^:]*: undecided, " r$n.err \
        || fail "runs $n: reason: $(tail -2 r$n.err)"
    assert_eq "$(json_get r$n/summary.json 'this.rows[0].metrics.throughput.vs_baseline.candidate.verdict')" "undecided"
    assert_eq "$(json_get r$n/summary.json 'this.chance.runs_per_side')" $n
    ! grep -q "2/252" r$n/report.html || fail "runs $n: report.html speaks of 2/252"
    grep -q "undecided" r$n/gate.md || fail "runs $n: gate.md"
done
# one run a side: no variance to judge by, said in both formats and languages
assert_eq "$(json_get r1/summary.json 'this.rows[0].metrics.throughput.vs_baseline.candidate.reason')" "too few runs"
assert_eq "$(json_get r1/summary.json 'this.chance.reachable')" false
for f in report.md report.html; do
    grep -q "With 1 run a side there is no variance to judge by" r1/$f || fail "$f floor sentence"
done
grep -q "too few runs" r1/gate.md || fail "gate.md: too few runs"
assert_eq "$(json_get r2/summary.json 'this.chance.reachable')" true
grep -q "with 2 runs a side the test has 1 degrees of freedom of its own" r2/report.md ||
    fail "report.md (2 runs) evidence sentence"
"$COMPARE" report r1 --lang zh > /dev/null 2> zh.err || fail "zh render: $(cat zh.err)"
for f in report.md report.html; do
    grep -q "每方 1 次运行时没有可供判断的方差" r1/$f || fail "zh $f floor sentence"
    ! grep -q "2/252" r1/$f || fail "zh $f speaks of 2/252"
done
"$COMPARE" report r2 --lang zh > /dev/null 2> zh.err || fail "zh render (2 runs): $(cat zh.err)"
# with 2 runs a side the disjoint-ranges chance is 2/C(4,2) = 2/6, stated in both formats
grep -q "每方 2 次运行时，区间不相交是 Mann–Whitney 检验最极端的结果：精确双侧 p = 2/6 ≈ 0.3333" r2/report.md \
    || fail "zh report.md: the 2-run chance"
grep -q "每方 2 次运行时，区间不相交是 Mann–Whitney 检验最极端的结果：精确双侧 p = 2/6 ≈ 0.3333" r2/report.html \
    || fail "zh report.html: the 2-run chance"
echo "760-gate-floor: ok"
