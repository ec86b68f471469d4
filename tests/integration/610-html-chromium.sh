#!/bin/sh
# pairbench-test: untimed
# report.html in headless Chromium, one browser for all pages:
# - 96 configurations (2 versions): no console error, no request of any kind, exactly one
#   chart per metric (live over the DevTools protocol and again in the DOM Chromium built),
#   every row and band present, the tables showing the rows that stand out with the full
#   tables collapsed in <details>, and a screenshot (--screenshot) that is a real PNG;
# - detection is real: copies of a good page broken one way each — a console.error call, an
#   uncaught exception, a request to a dead loopback port, a missing chart — are all refused
#   with the right reason, while the unbroken original passes;
# - the answer first, fitting the window: at 1400 × 900 the golden two-version report and the
#   96-row page start their table of changes within the first 900 px and are no wider than
#   the window; at 390 px (a phone) they do not scroll sideways either (a wide table scrolls
#   inside itself); a copy widened by one element and one with its tables pushed down are
#   both caught.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/html_lib.sh"

mkdir -p "$T/gold" && cp "$TOP/tests/golden/two-version/runs.jsonl" "$TOP/tests/golden/two-version/meta.json" "$T/gold/"
node "$TOP/tests/fixtures/html/make-summary.js" "$T/d96" 2 96
"$HTML_RENDER" --render "$T/d96/summary.json" "$T/d96/meta.json" en "$T/d96.html" ||
    fail "rendering the 96-configuration page failed"
node "$TOP/tests/fixtures/html/make-summary.js" "$T/d" 2 8
"$HTML_RENDER" --render "$T/d/summary.json" "$T/d/meta.json" en "$T/good.html" || fail "render failed"

port=$(free_port)
sed 's|</body>|<script>console.error("deliberate console error")</script></body>|' "$T/good.html" > "$T/console.html"
sed 's|</body>|<script>no_such_function()</script></body>|' "$T/good.html" > "$T/exception.html"
sed "s|</body>|<img alt=\"\" src=\"http://127.0.0.1:$port/pixel.png\"></body>|" "$T/good.html" > "$T/request.html"
sed 's|data-metric="rss_mib"|data-metric="rss"|' "$T/good.html" > "$T/nochart.html"

rc=0
html_check "$T/all.jsonl" "$T/d96.html" "$T/good.html" "$T/console.html" "$T/exception.html" \
    "$T/request.html" "$T/nochart.html" || rc=$?
assert_eq "$rc" 1 "checker exit with broken pages among the files"
page_problems "$T/all.jsonl" > "$T/problems"

expect() { # FILE PATTERN: a problem matching PATTERN is reported for FILE
    grep -F "$1: " "$T/problems" | grep -q "$2" || fail "'$2' not reported for '$1': $(cat "$T/problems")"
}
if grep -F -e "$T/good.html:" -e "$T/d96.html:" "$T/problems"; then fail "a good page was refused"; fi
expect "$T/console.html" 'error: console.error: deliberate console error'
expect "$T/exception.html" 'error: exception: ReferenceError: no_such_function'
expect "$T/request.html" "request: http://127.0.0.1:$port/pixel.png"
expect "$T/request.html" 'refers outside the file'
expect "$T/nochart.html" "0 charts for metric 'rss_mib'"
expect "$T/console.html" '1 script elements'

assert_eq "$(page_field "$T/all.jsonl" 0 'this.charts')" 6 "charts in the live DOM"
assert_eq "$(page_field "$T/all.jsonl" 0 'this.lang')" en "html lang"
# the DOM as Chromium built it: six charts, 96 row labels in each, 2 legend entries each
dom="$T/dom/d96.html.dom"
assert_eq "$(grep -o '<svg class="chart" data-metric="[a-z0-9_]*"' "$dom" | wc -l | tr -d ' ')" 6 \
    "charts in the DOM"
assert_eq "$(grep -o 'class="rl"' "$dom" | wc -l | tr -d ' ')" $((96 * 6)) "row labels"
assert_eq "$(grep -o 'class="lg"' "$dom" | wc -l | tr -d ' ')" 12 "legend entries"
# 2 (tcp, tls) x 3 payloads = 6 bands per chart
assert_eq "$(grep -o 'class="gh"' "$dom" | wc -l | tr -d ' ')" 36 "group bands"
grep -q '<tr><td>redis · tls · 16 KiB · pipeline64 · window4 · 16 clients</td>' "$dom" ||
    fail "the last configuration is missing from the throughput table"

# many rows: each table shows the rows that stand out, the full table is collapsed below it
notable=$(json_get "$T/d96/summary.json" 'this.rows.filter(r => ["throughput", "cpu_efficiency",
    "p50_us", "p99_us", "rss_mib"].some(m => r.metrics[m].vs_baseline.candidate.verdict !== "~")).length')
[ "$notable" -gt 0 ] && [ "$notable" -lt 96 ] || fail "fixture: $notable notable rows"
assert_eq "$(grep -o '<details class="full"><summary>Full table (96 configurations)</summary>' "$dom" |
    wc -l | tr -d ' ')" 4 "collapsed full tables"
if grep -q '<details[^>]* open' "$dom"; then fail "a full table is expanded"; fi
assert_eq "$(grep -o "96 configurations: this table shows the $notable that stand out" "$dom" |
    wc -l | tr -d ' ')" 4 "notable-rows notes"
assert_eq "$(grep -o '<tr><td>redis' "$dom" | wc -l | tr -d ' ')" $((4 * (96 + notable))) \
    "table rows (notable + full, 4 tables)"

# the answer first, and no sideways scroll: at 1400 × 900 the table of changes starts on the
# first screen and the page is no wider than the window; on a phone (390 px) neither; a page
# widened by one element and one whose tables were pushed down are both caught
"$COMPARE" report "$T/gold" > /dev/null 2>&1 || fail "compare report of the golden run failed"
cp "$T/gold/report.html" "$T/gold.html"
sed 's|</body>|<div style="width:2000px">wide</div></body>|' "$T/gold.html" > "$T/widened.html"
sed 's|<section id="tables">|<div style="height:1200px"></div><section id="tables">|' "$T/gold.html" > "$T/pushed.html"
cmp -s "$T/gold.html" "$T/pushed.html" && fail "fixture: the tables were not pushed down"
layout_problems() { # OUT.jsonl HEIGHT: one line per page that scrolls sideways or buries its table
    node -e '
const fs = require("fs"), h = +process.argv[2];
for (const line of fs.readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean)) {
  const r = JSON.parse(line), l = r.layout, n = r.file.replace(/.*\//, "");
  if (l.scroll_width > l.width) console.log(`${n}: ${l.scroll_width} px wide in a ${l.width} px window`);
  if (h && !(l.first_table !== null && l.first_table < h)) console.log(`${n}: the first table starts at ${l.first_table} px`);
}' "$1" "$2"
}
html_check "$T/wide.jsonl" --viewport 1400x900 "$T/gold.html" "$T/d96.html" "$T/widened.html" \
    "$T/pushed.html" || fail "console errors or requests at 1400 px"
html_check "$T/phone.jsonl" --viewport 390x844 "$T/gold.html" "$T/d96.html" ||
    fail "console errors or requests at 390 px"
layout_problems "$T/wide.jsonl" 900 > "$T/wide.txt"
layout_problems "$T/phone.jsonl" 0 > "$T/phone.txt"
grep -v -e '^widened.html: ' -e '^pushed.html: ' "$T/wide.txt" && fail "at 1400 x 900 (above)"
[ -s "$T/phone.txt" ] && fail "on a phone: $(cat "$T/phone.txt")"
grep -q '^widened.html: [0-9]* px wide in a [0-9]* px window' "$T/wide.txt" ||
    fail "the widened page was not caught: $(cat "$T/wide.txt")"
grep -q '^pushed.html: the first table starts at' "$T/wide.txt" ||
    fail "the pushed-down table was not caught: $(cat "$T/wide.txt")"

chromium_run --screenshot="$T/shot.png" --window-size=1280,2400 "file://$T/d96.html" \
    > /dev/null || fail "chromium --screenshot failed: $(tail -n 3 "$T/chromium.err")"
assert_png "$T/shot.png"
echo "ok: 96 configurations clean, 6 charts, screenshot $(wc -c < "$T/shot.png") bytes;" \
    "console error, exception, request and missing chart all detected"
