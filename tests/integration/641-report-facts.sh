#!/bin/sh
# pairbench-test: untimed
# report.md and report.html state the same facts for the same dataset (issue 27): the golden
# datasets (two, three and one version: unstable rows, a failed run, a loaded machine, a
# governor warning, TLS without verification) and a changed dataset, each in English and
# Chinese, rendered by `compare report`; tests/report_facts.js compares the completeness,
# the driver errors, every weakness, the "N of M stand out" sentences, the evidence note for
# the run count and the one-version highlight. About 5 s (no runs).
. "$(dirname "$0")/../lib.sh"
need node
G=$TOP/tests/golden
for name in two-version three-version one-version tampered; do
    src=$name; [ "$name" = tampered ] && src=two-version
    d=$T/$name
    mkdir -p "$d"
    cp "$G/$src/meta.json" "$d/"
    if [ "$name" = tampered ]; then
        sed '1s/"round":1/"round":1 /' "$G/$src/runs.jsonl" > "$d/runs.jsonl"
    else
        cp "$G/$src/runs.jsonl" "$d/"
    fi
    accept=; [ "$name" = tampered ] && accept=--accept-modified # judged, and said so first
    for lang in en zh; do
        "$COMPARE" report "$d" --lang "$lang" $accept > /dev/null 2> "$T/err" || fail "$name $lang: $(cat "$T/err")"
        node "$TOP/tests/report_facts.js" "$d/report.md" "$d/report.html" > "$T/facts" ||
            fail "$name $lang: report.md and report.html disagree:
$(cat "$T/facts")"
    done
done
grep -q '<li class="warn"><b><code>runs.jsonl</code>' "$T/tampered/report.html" || fail "tampered: no hash weakness"
echo "report.md and report.html state the same facts"
