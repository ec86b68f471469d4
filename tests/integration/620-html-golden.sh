#!/bin/sh
# pairbench-test: untimed
# report.html from `compare report DIR` on the committed golden datasets (two, three and one
# version) in English and Chinese, plus fixture pages that try to inject markup, all loaded in
# one headless Chromium:
# - every page: no console error, no request, one chart per metric, the right <html lang>,
#   the table of its kind (two versions: throughput and CPU; three: best per row in bold; one:
#   detailed results), the same bytes when rendered again;
# - a version named <script>alert(1)</script> and a label holding <b>&amp;</b> come out as
#   text in the DOM Chromium builds (no script element, the title reads literally), with one
#   legend entry per version in every chart; a single-version page with 12 configurations has
#   six charts of 12 bars.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/html_lib.sh"

pages=""
for kind in two three one; do
    src="$TOP/tests/golden/$kind-version"
    [ -f "$src/runs.jsonl" ] && [ -f "$src/meta.json" ] || fail "golden dataset '$src' missing"
    for lang in en zh; do
        d="$T/$kind-$lang"
        mkdir -p "$d"
        cp "$src/runs.jsonl" "$src/meta.json" "$d/"
        "$COMPARE" report "$d" --lang "$lang" > /dev/null 2> "$T/report.err" ||
            fail "compare report '$d' --lang $lang: $(cat "$T/report.err")"
        cp "$d/report.html" "$d/first.html"
        "$COMPARE" report "$d" --lang "$lang" > /dev/null 2>&1 || fail "second render failed"
        cmp -s "$d/first.html" "$d/report.html" || fail "$kind-$lang: report.html differs between renders"
        cp "$d/report.html" "$T/$kind-$lang.html"
        pages="$pages $T/$kind-$lang.html"
        grep -q "<html lang=\"$lang\">" "$T/$kind-$lang.html" || fail "$kind-$lang: no <html lang=\"$lang\">"
    done
done
node "$TOP/tests/fixtures/html/make-summary.js" "$T/evil" 3 8 --evil
node "$TOP/tests/fixtures/html/make-summary.js" "$T/one" 1 12
"$HTML_RENDER" --render "$T/evil/summary.json" "$T/evil/meta.json" en "$T/evil-en.html" || fail "render evil en"
"$HTML_RENDER" --render "$T/evil/summary.json" "$T/evil/meta.json" zh "$T/evil-zh.html" || fail "render evil zh"
"$HTML_RENDER" --render "$T/one/summary.json" "$T/one/meta.json" en "$T/one12-en.html" || fail "render one"
# shellcheck disable=SC2086
assert_clean_pages golden $pages "$T/evil-en.html" "$T/evil-zh.html" "$T/one12-en.html"

i=0
for kind in two three one; do
    for lang in en zh; do
        assert_eq "$(page_field "$T/golden.jsonl" $i 'this.lang')" "$lang" "$kind-$lang lang in the DOM"
        i=$((i + 1))
    done
done
grep -q 'id="table-throughput"' "$T/two-en.html" || fail "two versions: no throughput table"
grep -q '<td class="n"><b>' "$T/three-en.html" || fail "three versions: no best value in bold"
grep -q 'id="table-detailed"' "$T/one-en.html" || fail "one version: no detailed results table"
grep -q '吞吐量与 CPU' "$T/two-zh.html" || fail "two versions zh: no Chinese table heading"
grep -q 'Throughput and CPU' "$T/two-zh.html" && fail "two versions zh: English heading left"
grep -q '详细结果' "$T/one-zh.html" || fail "one version zh: no Chinese detailed results"

assert_eq "$(page_field "$T/golden.jsonl" 6 'this.title')" \
    'pairbench: baseline vs candidate vs <script>alert(1)</script>' "title read as text"
assert_eq "$(page_field "$T/golden.jsonl" 7 'this.lang')" zh "zh page lang"
dom="$T/dom/evil-en.html.dom"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$dom" || fail "the version name is not text in the DOM"
grep -q '&lt;b&gt;&amp;amp;&lt;/b&gt;' "$dom" || fail "the label markup is not text in the DOM"
assert_eq "$(grep -o 'class="lg"' "$dom" | wc -l | tr -d ' ')" 18 "legend entries (3 versions x 6 charts)"
dom1="$T/dom/one12-en.html.dom"
# one version: 12 configurations x 6 charts bars (a bar is a rect with a title)
assert_eq "$(grep -o '<rect x="[0-9.]*" y="[0-9.]*" width="[0-9.]*" height="[0-9.]*" fill="#4e79a7"><title>' "$dom1" | wc -l | tr -d ' ')" 72 "single-version bars"
grep -q 'id="table-detailed"' "$dom1" || fail "single version: no detailed results table"
echo "ok: 6 golden pages (2/3/1 versions, en/zh) clean and deterministic; escaping holds in the live DOM"
