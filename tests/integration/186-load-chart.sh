#!/bin/sh
# pairbench-test: timed
# A rate sweep of the issue's own percentages ("rate": ["25%", "50%", "75%", "90%"]) runs end
# to end through compare run (every run open loop at its percentage of the measured
# saturation rate), and report.html draws it: a section "Latency against load" with one chart
# per swept configuration, a panel per version with its P50 and P99 line through the four
# rates, the 1 ms line, and beside it the knee sentence, word for word the one report.md has;
# compare report --lang zh writes the same chart with the Chinese sentence.
. "$(dirname "$0")/../lib.sh"
need node

write_grid "$T/grid.json" sweep '"protocol": "tcp", "connections": 1, "payload": 64' \
    '"rate": ["25%", "50%", "75%", "90%"]'
write_spec "$T/spec.json" tcp "$T/grid.json" '"runs": 1, "warmup": 0.2, "duration": 0.5' \
    baseline "$DRIVER serve tcp --port {port} --payload 64" \
    candidate "$DRIVER serve tcp --port {port} --payload 64 --work 20000"
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/out" > "$T/stdout" 2> "$T/stderr" || rc=$?
[ $rc -le 1 ] || { cat "$T/stderr" >&2; fail "compare run exited $rc"; }
sat=$(json_get "$T/out/meta.json" 'Object.values(this.saturation)[0].rate')
assert_eq "$(node -e '
const fs=require("fs"), sat=Number(process.argv[2]);
const meta=JSON.parse(fs.readFileSync(process.argv[3],"utf8"));
const pct=Object.fromEntries(meta.configs.map(c => [c.id, c.params.rate]));
const lines=fs.readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
console.log(lines.length === 8 && lines.every(l => l.result && l.result.rate &&
    l.result.rate.target === Math.round(sat * parseFloat(pct[l.config]) / 100)));' \
    "$T/out/runs.jsonl" "$sat" "$T/out/meta.json")" true "8 runs open loop at 25-90% of $sat/s"

# the chart: one figure, two panels, each a P50 and a P99 line through four points
check_chart() { # html
    node -e '
const h=require("fs").readFileSync(process.argv[1],"utf8");
const sec=(h.match(/<section id="load">[\s\S]*?<\/section>/) || [""])[0];
const panels=sec.match(/<g class="panel" data-version="[^"]*">[\s\S]*?<\/g>/g) || [];
const pts=p => ["p50_us", "p99_us"].map(m => ((p.match(new RegExp("class=\"ld-" + m + "\"[^>]*points=\"([^\"]*)\"")) || ["", ""])[1]).split(" ").filter(Boolean).length);
console.log([(sec.match(/<svg class="chart load-chart"/g) || []).length, panels.length,
    panels.map(p => pts(p).join("+")).join(" "), /class="knee"/.test(sec),
    /data-version="baseline"/.test(sec) && /data-version="candidate"/.test(sec)].join(" "));' "$1"
}
assert_eq "$(check_chart "$T/out/report.html")" "1 2 4+4 4+4 true true" "report.html chart"
# the sentence beside it is report.md's, word for word
md=$(grep -A2 "^## Latency against load" "$T/out/report.md" | sed -n 's/^- [^:]*: //p')
html=$(node -e '
const h=require("fs").readFileSync(process.argv[1],"utf8");
const p=(h.match(/<p class="knee">([\s\S]*?)<\/p>/) || ["", ""])[1];
console.log(p.replace(/<[^>]*>/g, "").replace(/\.$/, ""));' "$T/out/report.html")
[ -n "$md" ] || fail "report.md has no knee sentence"
assert_eq "$html" "$md" "report.html's knee sentence"
echo "$html" | grep -q "P99 \(passes 1 ms at [0-9.]*% of saturation\|stays under 1 ms up to the highest rate\) for baseline" ||
    fail "knee sentence: $html"

"$COMPARE" report "$T/out" --lang zh > /dev/null || fail "compare report --lang zh"
assert_eq "$(check_chart "$T/out/report.html")" "1 2 4+4 4+4 true true" "report.html (zh) chart"
grep -q '<h2>延迟与负载</h2>' "$T/out/report.html" || fail "zh: no section heading"
grep '<p class="knee">' "$T/out/report.html" | grep -q "baseline 的 P99 \(在饱和速率的 [0-9.]*% 处超过 1 ms\|直到最高速率都低于 1 ms\)" ||
    fail "zh knee: $(grep '<p class="knee">' "$T/out/report.html")"
echo "ok: a rate sweep of 25-90% of saturation, drawn in report.html with its knee"
