#!/bin/sh
# pairbench-test: untimed
# docs/formats.md documents every key the code accepts and every field it writes, so it
# cannot fall behind the code: the keys are read from the binary itself (the "expected one
# of: ..." lists of its unknown-key errors for the spec, a version, the grid, a configuration
# and the gate section), summary.csv's header and summary.json's, runs.jsonl's and
# meta.json's fields from `compare report` of a golden run directory, and the driver
# result's fields from a real `driver tcp --serve` run. Each must appear in formats.md as
# `key`. Cost: about 2 s (no measurement but a 0.2 s driver run).
. "$(dirname "$0")/../lib.sh"
DOC=$TOP/docs/formats.md
[ -f "$DOC" ] || fail "docs/formats.md missing"
cd "$T"
echo '{"defaults": {"protocol": "tcp", "serve": true}}' > g.json

expected_list() { # file-args... : the names in "(expected one of: a, b, c)" of the error
    "$@" > /dev/null 2> err.txt && fail "$*: accepted an unknown key"
    sed -n 's/.*expected\( one of:\)\{0,1\} \([^)]*\)).*/\2/p' err.txt | tr -d ',' | sed 's/ or / /' | tr ' ' '\n' | grep -v '^$'
}
{
    echo '{"versions": [{"name": "a"}], "grids": ["g.json"], "zz": 1}' > s1.json
    expected_list "$COMPARE" run --spec s1.json --out o1
    echo '{"versions": [{"name": "a", "zz": 1}], "grids": ["g.json"]}' > s2.json
    expected_list "$COMPARE" run --spec s2.json --out o2
    echo '{"versions": [{"name": "a"}], "grids": ["g.json"]}' > s0.json
    echo '{"zz": 1}' > g1.json
    expected_list "$COMPARE" run --spec s0.json --grid g1.json --out o3
    echo '{"defaults": {"protocol": "tcp", "zz": 1}}' > g2.json
    expected_list "$COMPARE" run --spec s0.json --grid g2.json --out o4
    mkdir -p from && cp "$TOP/tests/golden/two-version/runs.jsonl" "$TOP/tests/golden/two-version/meta.json" from/
    echo '{"versions": [{"name": "a"}], "grids": ["g.json"], "gate": {"zz": 1}}' > s3.json
    expected_list "$COMPARE" gate --from from --spec s3.json
} > accepted.keys
n=$(sort -u accepted.keys | wc -l)
[ "$n" -ge 50 ] || { cat accepted.keys >&2; fail "read only $n accepted keys from the error messages"; }
for k in defaults axes exclude configs match; do echo "$k" >> accepted.keys; done

# fields written: summary.csv header, summary.json (top level, row, metric, comparison),
# runs.jsonl, meta.json, and the driver result
"$COMPARE" report from > /dev/null 2>&1 || fail "compare report of the golden run failed"
head -n 1 from/summary.csv | tr ',' '\n' > written.keys
python3 - from >> written.keys <<'PY'
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
keys = set(s)
keys |= set(s.get("outcome", {"outcome": 0}))
for row in s["rows"]:
    keys |= set(row) | set(row["runs"]) | set(row["metrics"])
    for m in row["metrics"].values():
        keys |= set(m)
        for v in m["values"].values(): keys |= set(v)
        for c in m["vs_baseline"].values(): keys |= set(c) | set(c.get("paired_ratio", {}))
for line in open(d + "/runs.jsonl"):
    r = json.loads(line); keys |= set(r)
    if r.get("client"): keys |= set(r["client"])
keys |= set(json.load(open(d + "/meta.json")))
print("\n".join(sorted(keys)))
PY
"$DRIVER" tcp --serve --warmup 0 --duration 0.2 > result.json || fail "driver tcp --serve failed"
python3 -c '
import json, sys
r = json.load(open("result.json"))
keys = set(r) | set(r["latency_us"]) | set(r["errors"]) | set(r["cpu"]) | set(r["build"])
print("\n".join(sorted(keys)))' >> written.keys

missing=""
for k in $(sort -u accepted.keys written.keys); do
    grep -qF "\`$k\`" "$DOC" || missing="$missing $k"
done
[ -z "$missing" ] || fail "docs/formats.md does not document:$missing"
grep -q '"outcome"\|`outcome`' "$DOC" || fail "formats.md: no outcome"
echo "ok: formats.md documents $(sort -u accepted.keys | wc -l) accepted keys and $(sort -u written.keys | wc -l) written fields"
