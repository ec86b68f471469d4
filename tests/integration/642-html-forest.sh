#!/bin/sh
# pairbench-test: untimed
# report.html opens its charts with a forest plot of the change, checked as laid out in
# headless Chromium: it comes before the absolute bar charts; one mark per row, candidate and
# gated metric that was measured (every metric with a threshold above zero: throughput, CPU
# efficiency, P50, P99, RSS by default, instructions when counted); each dot sits inside its
# 90% interval line and is coloured by the verdict summary.json gives that metric; the
# threshold band is centred on zero; a regressed throughput dot lies left of zero; no label is clipped; a
# one-version report has none. Detection is real: a copy with one regressed dot recoloured,
# and one with a dot moved out of its interval, are both refused. Pages: the two- and
# three-version golden runs (rendered by compare report) and a 96-row fixture. Cost: ~15 s.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/html_lib.sh"
for n in two-version three-version one-version; do
    mkdir -p "$T/$n" && cp "$TOP/tests/golden/$n/runs.jsonl" "$TOP/tests/golden/$n/meta.json" "$T/$n/"
    "$COMPARE" report "$T/$n" > /dev/null 2>&1 || fail "compare report $n failed"
    cp "$T/$n/report.html" "$T/$n.html"
done
node "$TOP/tests/fixtures/html/make-summary.js" "$T/d96" 2 96
"$HTML_RENDER" --render "$T/d96/summary.json" "$T/d96/meta.json" en "$T/d96.html" || fail "render d96"
cp "$T/d96/summary.json" "$T/d96.summary.json"
for n in two-version three-version one-version; do cp "$T/$n/summary.json" "$T/$n.summary.json"; done
# broken copies: the first regressed dot painted green; the first dot moved far right
node -e '
const fs = require("fs"), s = fs.readFileSync(process.argv[1], "utf8");
fs.writeFileSync(process.argv[2], s.replace(/(data-verdict="regressed">.*?<circle class="fp" cx="[0-9.]+" cy="[0-9.]+" r="3.5" fill=")#c62828/, "$1#2e7d32"));
fs.writeFileSync(process.argv[3], s.replace(/<circle class="fp" cx="[0-9.]+"/, "<circle class=\"fp\" cx=\"5\""));
' "$T/two-version.html" "$T/recolour.html" "$T/moved.html"
cp "$T/two-version.summary.json" "$T/recolour.summary.json"
cp "$T/two-version.summary.json" "$T/moved.summary.json"
cmp -s "$T/two-version.html" "$T/recolour.html" && fail "fixture: nothing recoloured"

html_check "$T/all.jsonl" "$T/two-version.html" "$T/three-version.html" "$T/one-version.html" \
    "$T/d96.html" "$T/recolour.html" "$T/moved.html" || fail "a page has console errors or requests"

cat > "$T/check.js" <<'JS'
const fs = require('fs');
const colour = { regressed: '#c62828', improved: '#2e7d32', '~': '#3a5f8f', undecided: '#d08c00', failed: '#8a8a8a' };
// a panel per gated metric that was measured, in the metric table's order (counted ones too)
const order = ['throughput', 'cpu_percent', 'cpu_efficiency', 'p50_us', 'p99_us', 'rss_mib',
  'server_cpu_us', 'instructions', 'context_switches', 'page_faults', 'cpu_migrations',
  'syscalls', 'allocations', 'estimated_cycles'];
for (const line of fs.readFileSync(process.argv[2], 'utf8').trim().split('\n')) {
  const page = JSON.parse(line), f = page.forest, name = page.file.replace(/.*\//, '');
  const sum = JSON.parse(fs.readFileSync(page.file.replace(/\.html$/, '.summary.json'), 'utf8'));
  const bad = m => console.log(`${name}: ${m}`);
  const cands = sum.versions.slice(1);
  if (!cands.length) { if (f) bad('a one-version report has a forest plot'); continue; }
  if (!f) { bad('no forest plot'); continue; }
  if (!f.before_charts) bad('the forest plot is not before the bar charts');
  if (!(f.label_min_x >= 0)) bad(`a label is clipped (x ${f.label_min_x})`);
  // a summary without thresholds (the 96-row fixture): the metric table's defaults
  const th = sum.thresholds_pct || { throughput: 5, cpu_efficiency: 5, p50_us: 5, p99_us: 10, rss_mib: 10 };
  const headline = order.filter(m => th[m] > 0 && sum.rows.some(r => r.metrics[m]));
  const want = sum.rows.length * cands.length * headline.length;
  if (f.marks.length !== want) bad(`${f.marks.length} marks, expected ${want}`);
  let k = 0;
  for (const row of sum.rows) for (const cand of cands) for (const m of headline) {
    const mk = f.marks[k++] || {}, vs = row.metrics[m] && row.metrics[m].vs_baseline[cand];
    if (mk.metric !== m) { bad(`mark ${k}: metric ${mk.metric}, expected ${m}`); continue; }
    if (!vs) { if (mk.verdict !== 'failed') bad(`${row.label} ${m}: a mark for a metric not measured`); continue; }
    if (mk.verdict !== vs.verdict) bad(`${row.label} ${m}: verdict ${mk.verdict}, summary says ${vs.verdict}`);
    if (mk.fill !== colour[vs.verdict]) bad(`${row.label} ${m}: ${vs.verdict} dot coloured ${mk.fill}`);
    if (mk.lo !== null && !(mk.cx >= mk.lo - 0.11 && mk.cx <= mk.hi + 0.11))
      bad(`${row.label} ${m}: dot ${mk.cx} outside its interval [${mk.lo}, ${mk.hi}]`);
    if (mk.band) {
      const zero = (mk.band[0] + mk.band[1]) / 2;
      if (vs.verdict === 'regressed' && m === 'throughput' && !(mk.cx < zero))
        bad(`${row.label}: regressed throughput dot ${mk.cx} not left of zero ${zero}`);
      if (m === 'throughput' && vs.paired_ratio && Math.sign(mk.cx - zero) !== Math.sign(vs.paired_ratio.median - 1) &&
          Math.abs(vs.paired_ratio.median - 1) > 0.002)
        bad(`${row.label}: dot on the wrong side of zero`);
    }
  }
}
JS
node "$T/check.js" "$T/all.jsonl" > "$T/problems"
grep -v -e '^recolour.html: ' -e '^moved.html: ' "$T/problems" && fail "good pages refused (above)"
grep -q '^recolour.html: .*regressed dot coloured #2e7d32' "$T/problems" || fail "the recoloured dot was not caught"
grep -q '^moved.html: .*outside its interval' "$T/problems" || fail "the moved dot was not caught"
echo "ok: forest plot before the charts, $(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8").split("\n")[3]).forest.marks.length)' "$T/all.jsonl") marks on 96 rows checked; recolour and move detected"
