#!/bin/sh
# pairbench-test: timed
# The evidence floor end to end: one and two runs a side on identical versions never exit 1
# (one run a side is always "disjoint"); the gate exits 4 and says "too few runs", and
# summary.json, report.md and report.html state the chance at those run counts, in English and
# Chinese (2 runs: 2/6, never 2/252). Cost: 6 runs of 0.3 s, about 8 s.
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
    grep -q "compare: gate: exit 4: inconclusive: 'tcp · 64 B · window1 · 1 client' throughput .*: too few runs (candidate)" r$n.err \
        || fail "runs $n: reason: $(tail -2 r$n.err)"
    assert_eq "$(json_get r$n/summary.json 'this.rows[0].metrics.throughput.vs_baseline.candidate.verdict')" "~"
    assert_eq "$(json_get r$n/summary.json 'this.rows[0].metrics.throughput.vs_baseline.candidate.reason')" "too few runs"
    assert_eq "$(json_get r$n/summary.json 'this.chance.reachable')" false
    assert_eq "$(json_get r$n/summary.json 'this.chance.runs_per_side')" $n
    grep -q "With $n runs a side even the most extreme outcome has a chance of" r$n/report.md \
        || fail "runs $n: report.md floor sentence"
    grep -q "With $n runs a side even the most extreme outcome has a chance of" r$n/report.html \
        || fail "runs $n: report.html floor sentence"
    grep -q "no verdict can be reached" r$n/report.html || fail "runs $n: report.html floor"
    ! grep -q "2/252" r$n/report.html || fail "runs $n: report.html speaks of 2/252"
    grep -q "too few runs" r$n/gate.md || fail "runs $n: gate.md"
    # the same chance in Chinese, in both formats (re-rendered from the dataset: no runs)
    "$COMPARE" report r$n --lang zh > /dev/null 2> zh.err || fail "runs $n: zh render: $(cat zh.err)"
    for f in report.md report.html; do
        grep -q "每方 $n 次运行时，即使最极端的结果偶然出现的概率也有" r$n/$f \
            || fail "runs $n: zh $f floor sentence"
        ! grep -q "2/252" r$n/$f || fail "runs $n: zh $f speaks of 2/252"
    done
done
# with 2 runs a side the disjoint-ranges chance is 2/C(4,2) = 2/6, stated in both formats
grep -q "每方 2 次运行时，区间不相交是 Mann–Whitney 检验最极端的结果：精确双侧 p = 2/6 ≈ 0.3333" r2/report.md \
    || fail "zh report.md: the 2-run chance"
grep -q "每方 2 次运行时，区间不相交是 Mann–Whitney 检验最极端的结果：精确双侧 p = 2/6 ≈ 0.3333" r2/report.html \
    || fail "zh report.html: the 2-run chance"
echo "760-gate-floor: ok"
