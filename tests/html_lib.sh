# Helpers for the report.html integration tests (61-65); source after lib.sh.
# Headless Chromium with no network of its own, a private profile under $T, bounded in time.
need chromium
need node
HTML_CHECK="$TOP/tests/html_check.js"
HTML_RENDER="$TOP/${PAIRBENCH_BUILD:-build}/tests/test_report_html"
[ -x "$HTML_RENDER" ] || fail "renderer '$HTML_RENDER' not built (run make tests)"
CHROMIUM_FLAGS="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
 --disable-background-networking --disable-component-update --disable-sync"
HTML_SEQ=0

# chromium_run ARGS...: one bounded Chromium invocation with its own profile.
chromium_run() {
    HTML_SEQ=$((HTML_SEQ + 1))
    # shellcheck disable=SC2086
    timeout 90 chromium $CHROMIUM_FLAGS --user-data-dir="$T/prof$HTML_SEQ" "$@" 2>> "$T/chromium.err" && return 0
    rc=$?
    # the last line of the log then says why, before Chromium's own noise (D-Bus) hides it
    [ $rc -eq 124 ] && echo "chromium: no result within 90 s (killed by timeout)" >> "$T/chromium.err"
    [ $rc -ne 124 ] && echo "chromium: exit $rc" >> "$T/chromium.err"
    return $rc
}

# html_check OUT.jsonl FILE...: load every FILE in one browser; one JSON line per file in OUT
# (console errors, exceptions, requests, charts, metrics, lang, scripts, title) and each
# page's live DOM in $T/dom/<file name>.dom. Returns the checker's exit: 0 clean, 1 problems;
# a harness failure (2) fails the test here.
html_check() {
    out=$1; shift
    HTML_SEQ=$((HTML_SEQ + 1))
    rc=0
    mkdir -p "$T/dom"
    node "$HTML_CHECK" "$@" --profile "$T/prof$HTML_SEQ" --timeout-ms 90000 --dom-dir "$T/dom" > "$out" \
        2>> "$T/check.err" || rc=$?
    [ $rc -ne 2 ] || fail "the HTML checker failed (exit 2): $(tail -n 3 "$T/check.err" 2>&1; ls -ld "$T" 2>&1)"
    return $rc
}

# page_problems OUT.jsonl: one line "FILE: problem" per problem found in the checker's output
# (console error, exception, request, a metric without exactly one chart, a script element)
# and in the file itself (a reference to anything outside it). Empty when all is well.
page_problems() {
    node -e '
const fs = require("fs");
const want = ["throughput", "p50_us", "p99_us", "cpu_percent", "rss_mib", "cpu_efficiency"];
for (const line of fs.readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean)) {
  const r = JSON.parse(line);
  for (const e of r.errors) console.log(`${r.file}: error: ${e}`);
  for (const u of r.requests) console.log(`${r.file}: request: ${u}`);
  for (const m of want) {
    const n = r.metrics.filter(x => x === m).length;
    if (n !== 1) console.log(`${r.file}: ${n} charts for metric '"'"'${m}'"'"'`);
  }
  if (r.scripts) console.log(`${r.file}: ${r.scripts} script elements`);
  const text = fs.readFileSync(r.file, "utf8");
  const ext = text.match(/https?:\/\/|\bsrc=|<link|@import|url\(/i);
  if (ext) console.log(`${r.file}: refers outside the file: ${ext[0]}`);
}' "$1"
}

# assert_clean_pages NAME FILE...: every page loads without a problem.
assert_clean_pages() {
    name=$1; shift
    html_check "$T/$name.jsonl" "$@" || true
    page_problems "$T/$name.jsonl" > "$T/$name.problems"
    [ ! -s "$T/$name.problems" ] || fail "$name: $(cat "$T/$name.problems")"
}

# page_field OUT.jsonl INDEX EXPR: EXPR evaluated on the INDEX-th (0-based) result line.
page_field() {
    node -e '
const l = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean);
const v = (function () { return eval(process.argv[3]); }).call(JSON.parse(l[+process.argv[2]]));
console.log(typeof v === "object" ? JSON.stringify(v) : String(v));' "$1" "$2" "$3"
}

# assert_png FILE: a non-trivial PNG.
assert_png() {
    [ -s "$1" ] || fail "no screenshot at '$1'"
    magic=$(od -An -c -N4 "$1" | tr -d ' ')
    assert_eq "$magic" '211PNG' "PNG signature of '$1'"
    size=$(wc -c < "$1")
    [ "$size" -gt 20000 ] || fail "screenshot '$1' is only $size bytes"
}
