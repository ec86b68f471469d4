#!/bin/sh
# pairbench-test: untimed
# report.md and report.html state the same facts for the same dataset (issue 27): the golden
# datasets (two, three and one version: unstable rows, a failed run, a loaded machine, a
# governor warning, TLS without verification) and a changed dataset, each in English and
# Chinese, rendered by `compare report`; tests/report_facts.js compares the completeness,
# the driver errors, every weakness, the "N of M stand out" sentences, the evidence note for
# the run count and the one-version highlight. gate.md (`compare gate --from`) states the
# same throughput change and verdict per configuration as report.md (tests/gate_facts.js),
# and renders in Chinese with --lang zh. About 10 s (no runs).
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
# gate.md: the same figures as report.md, in both languages
d=$T/two-version
for lang in en zh; do
    set +e; "$COMPARE" gate --from "$d" --lang "$lang" > "$T/gate-$lang.md" 2> "$T/err"; rc=$?; set -e
    [ "$rc" = 1 ] || fail "gate --from two-version --lang $lang: exit $rc, expected 1: $(cat "$T/err")"
    "$COMPARE" report "$d" --lang "$lang" > /dev/null 2> "$T/err" || fail "report $lang: $(cat "$T/err")"
    node "$TOP/tests/gate_facts.js" "$d/report.md" "$T/gate-$lang.md" > "$T/facts" ||
        fail "$lang: report.md and gate.md disagree:
$(cat "$T/facts")"
done
grep -q '^## pairbench gate: regression$' "$T/gate-en.md" || fail "gate.md en: no outcome line"
grep -q '^## pairbench 门禁：退步$' "$T/gate-zh.md" || fail "gate.md zh: no Chinese outcome line"
grep -q '^\*\*退步。\*\*' "$T/gate-zh.md" || fail "gate.md zh: no Chinese opening"
! grep -q 'Candidate against\|Gated metrics\|Evidence this strong\|Run directory' "$T/gate-zh.md" ||
    fail "gate.md zh: English sentences left: $(grep 'Candidate against\|Gated metrics\|Evidence this strong\|Run directory' "$T/gate-zh.md")"
grep -q '<li class="warn"><b><code>runs.jsonl</code>' "$T/tampered/report.html" || fail "tampered: no hash weakness"
echo "report.md, report.html and gate.md state the same facts"
