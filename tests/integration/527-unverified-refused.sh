#!/bin/sh
# pairbench-test: untimed
# A run directory is judged only as far as it is checked. A meta.json without its "dataset"
# key (or without dataset.sha256), or no meta.json at all, leaves runs.jsonl unchecked:
# `report`, `gate --from`, `merge` and `drift --add` refuse it with exit 2 naming the key,
# even when the candidate's throughput was forged 10x down; with --unverified it is judged
# and gate.md, report.md, report.html and summary.json say so first. A dataset record of the
# wrong shape is a modification (exit 2 naming "dataset"). `gate --from DIR --spec OTHER`
# whose versions differ is refused (exit 2 naming both); with the run's own spec it is
# accepted. The gate settings gate --from reads from meta.json are said on stderr and in
# gate.md's first line (the PR comment), not when --spec gave them.
# Cost: two sharded runs of 2 x 0.2 s, then re-renders only; about 3 s.
. "$(dirname "$0")/../lib.sh"
need node
cd "$T"
write_grid grid.json g '"protocol": "tcp", "connections": 1, "workers": 1' '"payload": [64, 512]'
cat > spec.json <<JSON
{"versions": [
  {"name": "baseline", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
  {"name": "candidate", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.05, "duration": 0.2,
 "gate": {"thresholds": {"throughput": 7}, "noise_limit": 42}}
JSON
sed 's/"baseline"/"main"/; s/"candidate"/"feature"/' spec.json > other.json
for k in 1 2; do
    "$COMPARE" run --spec spec.json --shard "$k/2" --out "s$k" > /dev/null 2> "s$k.err" ||
        fail "shard $k: $(tail -3 "s$k.err")"
done

# meta PY DIR: rewrite DIR/meta.json (m: the document; python keeps 5.0 a real)
meta() { python3 -c "import json,sys;p=sys.argv[1]+'/meta.json';m=json.load(open(p));$1;json.dump(m,open(p,'w'))" "$2"; }
# forged: the candidate's throughput divided by 10, and the record that would catch it gone
rm -rf nodata; cp -r s1 nodata
node -e "
const fs=require('fs'),p='nodata/runs.jsonl';
const L=fs.readFileSync(p,'utf8').split('\n').slice(0,-1).map(JSON.parse);
for (const o of L) if (o.version==='candidate') o.result.throughput/=10;
fs.writeFileSync(p,L.map(o=>JSON.stringify(o)).join('\n')+'\n');"
meta "del m['dataset']" nodata
rm -rf nosha; cp -r s1 nosha; meta "del m['dataset']['sha256']" nosha
rm -rf badsha; cp -r s1 badsha; meta "m['dataset']['sha256']=7" badsha
rm -rf nometa; cp -r s1 nometa; rm nometa/meta.json

refused() { # WHAT EXPECTED CMD...
    what=$1 want=$2; shift 2
    rc=0; "$@" > out 2> err || rc=$?
    assert_eq "$rc" 2 "$what"
    grep -qF -- "$want" err || fail "$what: the message does not name '$want': $(cat err)"
}
refused "report of a meta.json without dataset" "nodata/meta.json: key \"dataset\" is missing" "$COMPARE" report nodata
grep -q -- "--unverified" err || fail "report does not name the way out: $(cat err)"
refused "gate --from without dataset" "nodata/meta.json: key \"dataset\" is missing" "$COMPARE" gate --from nodata
refused "merge of a shard without dataset" "nodata/meta.json: key \"dataset\" is missing" "$COMPARE" merge --out m1 nodata s2
[ ! -e m1/runs.jsonl ] || fail "a refused merge wrote a dataset"
refused "drift --add without dataset" "nodata/meta.json: key \"dataset\" is missing" "$COMPARE" drift --history h --add nodata
refused "report without dataset.sha256" "nosha/meta.json: key \"dataset.sha256\" is missing" "$COMPARE" report nosha
refused "report without meta.json" "nometa/meta.json is missing" "$COMPARE" report nometa
refused "gate --from without meta.json" "nometa/meta.json" "$COMPARE" gate --from nometa
refused "a malformed record" "badsha/meta.json: \"dataset\": expected" "$COMPARE" report badsha

# --unverified: judged, and every output says so first
rc=0; "$COMPARE" gate --from nodata --unverified > gate.out 2> gate.err || rc=$?
[ "$rc" -le 4 ] || fail "gate --from --unverified: exit $rc: $(cat gate.err)"
head -1 nodata/gate.md | grep -q '^\*\*The data is unverified: .*key "dataset" is missing' ||
    fail "gate.md's first line: $(head -1 nodata/gate.md)"
head -1 nodata/report.md | grep -q 'The data is unverified' || fail "report.md's first line: $(head -1 nodata/report.md)"
sed -n '/<body>/{n;p;q}' nodata/report.html | grep -q 'The data is unverified' || fail "report.html does not lead with it"
json_get nodata/summary.json 'this.warnings[0]' | grep -q '^The data is unverified' ||
    fail "summary.json warnings[0]: $(json_get nodata/summary.json 'this.warnings[0]')"
assert_exit 0 "$COMPARE" report nometa --unverified > /dev/null 2> err
"$COMPARE" merge --unverified --out m2 nodata s2 > /dev/null 2> err || fail "merge --unverified: $(cat err)"
rc=0; "$COMPARE" gate --from m2 > /dev/null 2> err || rc=$?
[ "$rc" -le 4 ] || fail "gate --from a merge of an unverified shard: exit $rc: $(cat err)"
head -1 m2/gate.md | grep -q 'The data is unverified: .*nodata/meta.json' || fail "merged gate.md: $(head -1 m2/gate.md)"

# --spec with other version names is refused; the run's own spec is accepted
refused "gate --from --spec with other versions" "names main,feature, but --from 's1' measured baseline,candidate" \
    "$COMPARE" gate --from s1 --spec other.json
rc=0; "$COMPARE" gate --from s1 --spec spec.json > /dev/null 2> err || rc=$?
[ "$rc" -le 4 ] || fail "gate --from --spec with the same versions: exit $rc: $(cat err)"
grep -q "spec.gate of" err && fail "with --spec, the settings are said to be meta.json's"

# gate --from alone: the settings read from meta.json are said so
rc=0; "$COMPARE" gate --from s1 > /dev/null 2> err || rc=$?
[ "$rc" -le 4 ] || fail "gate --from s1: exit $rc: $(cat err)"
grep -q "spec.gate of 's1/meta.json' (not checked against anything): .*\"noise_limit\":42" err ||
    fail "gate --from does not say where its settings come from: $(cat err)"
head -1 s1/gate.md | grep -q "^\*\*The thresholds and noise settings are spec.gate of \`s1/meta.json\`, which nothing checks: .*\"noise_limit\":42" ||
    fail "gate.md (the PR comment) does not say where its settings come from: $(head -1 s1/gate.md)"
"$COMPARE" gate --from s1 --spec spec.json > /dev/null 2>&1 || [ $? -le 4 ] || fail "gate --from s1 --spec"
grep -q "which nothing checks" s1/gate.md && fail "with --spec, gate.md says the settings are meta.json's"
echo "unverified refused, judged when told; other specs refused; meta.json settings named"
