#!/bin/sh
# pairbench-test: untimed
# Golden reports: the committed fixtures (tests/golden/{two,three,one}-version: runs.jsonl +
# meta.json) rendered by `compare report DIR` (en and --lang zh) must give byte-for-byte the
# committed summary.json, report.md and report.zh.md; re-rendering gives the same bytes; the
# dataset hash in meta.json is the sha256sum of runs.jsonl, and one changed byte makes
# `compare report` warn (stderr and report) that the dataset no longer matches.
# PAIRBENCH_GOLDEN_UPDATE=1 copies the fresh outputs over the committed ones instead.
. "$(dirname "$0")/../lib.sh"
G=$TOP/tests/golden
[ -x "$COMPARE" ] || fail "no compare binary at '$COMPARE' (run make)"
need sha256sum

for name in two-version three-version one-version; do
    d=$T/$name
    mkdir -p "$d"
    cp "$G/$name/runs.jsonl" "$G/$name/meta.json" "$d/"

    sum=$(sha256sum "$d/runs.jsonl" | cut -d' ' -f1)
    assert_eq "$(json_get "$d/meta.json" 'this.dataset.sha256')" "$sum" "$name: meta.json dataset hash"

    "$COMPARE" report "$d" > "$T/$name.out" 2> "$T/$name.err" || {
        cat "$T/$name.err" >&2; fail "$name: compare report failed"; }
    for f in summary.json summary.csv report.md report.html; do
        [ -s "$d/$f" ] || fail "$name: $f not written"
    done
    if grep -q 'no longer matches' "$T/$name.err"; then fail "$name: spurious hash warning"; fi
    cp "$d/report.md" "$T/$name.report.md"
    cp "$d/summary.json" "$T/$name.summary.json"
    "$COMPARE" report "$d" > /dev/null 2>&1 || fail "$name: second render failed"
    cmp -s "$d/report.md" "$T/$name.report.md" || fail "$name: report.md differs between renders"
    cmp -s "$d/summary.json" "$T/$name.summary.json" || fail "$name: summary.json differs between renders"
    "$COMPARE" report "$d" --lang zh > /dev/null 2> "$T/$name.zh.err" || {
        cat "$T/$name.zh.err" >&2; fail "$name: compare report --lang zh failed"; }
    cp "$d/report.md" "$T/$name.report.zh.md"
    grep -q '^## 摘要' "$T/$name.report.zh.md" || fail "$name: --lang zh did not write Chinese"

    if [ -n "${PAIRBENCH_GOLDEN_UPDATE:-}" ]; then
        cp "$T/$name.summary.json" "$G/$name/summary.json"
        cp "$T/$name.report.md" "$G/$name/report.md"
        cp "$T/$name.report.zh.md" "$G/$name/report.zh.md"
        echo "updated $G/$name"
        continue
    fi
    diff -u "$G/$name/summary.json" "$T/$name.summary.json" || fail "$name: summary.json differs from the golden file"
    diff -u "$G/$name/report.md" "$T/$name.report.md" || fail "$name: report.md differs from the golden file"
    diff -u "$G/$name/report.zh.md" "$T/$name.report.zh.md" || fail "$name: report.zh.md differs from the golden file"
done

# One changed byte in runs.jsonl: refused (exit 2, naming the file) as not what the run
# recorded; with --accept-modified rendered, and every output says so first.
d=$T/tampered
mkdir -p "$d"
cp "$G/two-version/meta.json" "$d/"
sed '1s/"round":1/"round":1 /' "$G/two-version/runs.jsonl" > "$d/runs.jsonl"
cmp -s "$d/runs.jsonl" "$G/two-version/runs.jsonl" && fail "tampering changed nothing"
rc=0; "$COMPARE" report "$d" > /dev/null 2> "$T/tampered.err" || rc=$?
assert_eq "$rc" 2 "compare report on a changed dataset"
grep -q "runs.jsonl: SHA-256 .* is not the one meta.json recorded" "$T/tampered.err" || fail "no reason for the refusal: $(cat "$T/tampered.err")"
"$COMPARE" report "$d" --accept-modified > /dev/null 2> "$T/tampered.err" || fail "tampered dataset: compare report --accept-modified failed"
grep -q "The data was modified after the run" "$T/tampered.err" || fail "no stderr warning for a changed dataset: $(cat "$T/tampered.err")"
head -1 "$d/report.md" | grep -q "The data was modified after the run" || fail "report.md does not say first that the data changed"
grep -q "no longer matches the SHA-256 recorded" "$d/report.md" || fail "no report warning for a changed dataset"
assert_eq "$(json_get "$d/summary.json" 'this.dataset.matches')" "false" "summary.json dataset.matches"
echo "golden reports match"
