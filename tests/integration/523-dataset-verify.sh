#!/bin/sh
# pairbench-test: untimed
# Judge only what the run recorded: a shard's runs.jsonl checked against its meta.json by
# `report`, `gate --from`, `merge` and `drift --add`. An edited candidate line, a forged
# version, an unknown configuration id, a duplicated round and a truncated last line each make
# them exit 2 naming the file and line; with --accept-modified the data is judged and gate.md,
# report.md, report.html, summary.json's warnings and the terminal say so first. The
# untouched shards merge and gate as before. An unfinished run's last line without its newline
# is named and left out by report, gate and merge alike, even when it parses.
. "$(dirname "$0")/../lib.sh"
need node
cd "$T"
cp "$DRIVER" "$T/driver"; DRV=$T/driver
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare
cat > grid.json <<'JSON'
{"name": "verify-small", "defaults": {"protocol": "tcp", "connections": 1, "workers": 1},
 "axes": {"payload": [64, 512]}}
JSON
cat > spec.json <<JSON
{"versions": [
  {"name": "baseline", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}},
  {"name": "candidate", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 2, "warmup": 0.05, "duration": 0.2, "grace": 10, "probe_timeout": 20}
JSON
for k in 1 2; do
    "$COMPARE" run --spec spec.json --shard "$k/2" --out "s$k" > /dev/null 2> "s$k.err" ||
        fail "shard $k: $(tail -3 "s$k.err")"
done
assert_eq "$(wc -l < s1/runs.jsonl | tr -d ' ')" 4 "shard 1 lines"
assert_eq "$(json_get s1/meta.json 'this.dataset.line_sha256.length')" 4 "per-line hashes recorded"
# the untouched shards: judged, merged, no warning
assert_exit 0 "$COMPARE" report s1 > /dev/null
"$COMPARE" merge --out clean s1 s2 > /dev/null 2> clean.err || fail "merge of clean shards: $(cat clean.err)"
grep -q "modified" clean.err && fail "clean merge warns: $(cat clean.err)"
assert_eq "$(json_get clean/meta.json 'this.dataset.line_sha256.length')" 8 "merged per-line hashes"
assert_exit 0 "$COMPARE" report clean > /dev/null

# tamper NAME LINE JS: a copy of shard 1 whose runs.jsonl node rewrites (L: the lines)
tamper() {
    rm -rf "$1"; cp -r s1 "$1"
    node -e "
const fs = require('fs'); const p = process.argv[1];
let L = fs.readFileSync(p, 'utf8').split('\n').slice(0, -1);
$2
fs.writeFileSync(p, L.join('\n') + (L.cut ? '' : '\n'));" "$1/runs.jsonl"
}
# check NAME LINE WHAT: report, gate --from and merge refuse it, exit 2, naming the line
check() {
    for cmd in report gate merge; do
        rm -rf "m-$1"
        case $cmd in
        report) set -- "$1" "$2" "$3" "$COMPARE" report "$1" ;;
        gate) set -- "$1" "$2" "$3" "$COMPARE" gate --from "$1" ;;
        merge) set -- "$1" "$2" "$3" "$COMPARE" merge --out "m-$1" "$1" s2 ;;
        esac
        name=$1 line=$2 what=$3; shift 3
        rc=0; "$@" > out 2> err || rc=$?
        assert_eq "$rc" 2 "$cmd on $name"
        grep -q "$name/runs.jsonl:$line: $what" err || fail "$cmd on $name: $(cat err)"
        grep -q -- "--accept-modified" err || fail "$cmd on $name does not name the way out: $(cat err)"
        set -- "$name" "$line" "$what"
    done
}
# round 1 runs the baseline first, so line 2 is the candidate's: its throughput divided by 10
tamper edited 'const o = JSON.parse(L[1]); if (o.version !== "candidate") process.exit(3);
o.result.throughput /= 10; L[1] = JSON.stringify(o);'
check edited 2 "differs from the line the run recorded"
tamper forged 'const o = JSON.parse(L[0]); o.version = "zzz"; L.push(JSON.stringify(o));'
check forged 5 "version 'zzz' is not one of meta.json's versions"
tamper unknown 'const o = JSON.parse(L[0]); o.config = "0badc0de"; L.push(JSON.stringify(o));'
check unknown 5 "configuration id '0badc0de' is not one of meta.json's configs"
tamper duplicated 'L.push(L[0]);'
check duplicated 5 "a second run of configuration"
tamper outside 'const o = JSON.parse(L[0]); o.round = 99; L.push(JSON.stringify(o));'
check outside 5 "round 99 is outside the schedule"
tamper truncated 'L[3] = L[3].slice(0, 40); L.cut = 1;'
check truncated 4 "truncated"

# an unfinished run (meta.json holds no dataset record yet) whose last line lost only its
# newline: every reader names that line and leaves it out, though it parses (one rule)
# (shard 2 rewritten the same way, whole, for the merge)
rm -rf unfinished unfinished2; cp -r s1 unfinished; cp -r s2 unfinished2
node -e 'const fs = require("fs");
for (const d of process.argv.slice(1)) {
  const m = JSON.parse(fs.readFileSync(d + "/meta.json", "utf8")); delete m.dataset;
  fs.writeFileSync(d + "/meta.json", JSON.stringify(m));
}
const t = fs.readFileSync("unfinished/runs.jsonl", "utf8");
fs.writeFileSync("unfinished/runs.jsonl", t.slice(0, -1));' unfinished unfinished2
for cmd in report gate merge; do
    case $cmd in
    report) set -- "$COMPARE" report --unverified unfinished ;;
    gate) set -- "$COMPARE" gate --unverified --from unfinished ;;
    merge) rm -rf m-unfinished; set -- "$COMPARE" merge --unverified --out m-unfinished unfinished unfinished2 ;;
    esac
    rc=0; "$@" > out 2> err || rc=$?
    [ "$rc" -le 4 ] && [ "$rc" -ne 2 ] && [ "$rc" -ne 3 ] || fail "$cmd on an unfinished run: exit $rc: $(cat err)"
    grep -q "unfinished/runs.jsonl': line 4 has no newline at its end (a run cut short while being written); it was left out" err ||
        fail "$cmd does not name the cut line: $(cat err)"
done
assert_eq "$(json_get unfinished/summary.json 'this.rows.reduce((n, r) => n + r.runs.ok, 0)')" 3 "runs judged without the cut line"
assert_eq "$(wc -l < m-unfinished/runs.jsonl | tr -d ' ')" 7 "merged lines without the cut one"

# drift --add refuses it too
rc=0; "$COMPARE" drift --history hist --add forged > /dev/null 2> drift.err || rc=$?
assert_eq "$rc" 2 "drift --add of a forged dataset"
grep -q "forged/runs.jsonl:5:" drift.err || fail "drift --add: $(cat drift.err)"

# --accept-modified: judged, and every output says so first
rc=0; "$COMPARE" gate --from edited --accept-modified > gate.out 2> gate.err || rc=$?
[ "$rc" -le 4 ] || fail "gate --from --accept-modified: exit $rc: $(cat gate.err)"
head -1 edited/gate.md | grep -q "^\*\*The data was modified after the run: .*edited/runs.jsonl:2: differs" ||
    fail "gate.md's first line: $(head -1 edited/gate.md)"
head -1 gate.out | grep -q "The data was modified after the run" || fail "stdout's first line: $(head -1 gate.out)"
head -1 gate.err | grep -q "The data was modified after the run" || fail "terminal's first line: $(head -1 gate.err)"
grep -q "pairbench-gate" edited/gate.md || fail "gate.md lost its comment marker"
head -1 edited/report.md | grep -q "The data was modified after the run" || fail "report.md's first line: $(head -1 edited/report.md)"
grep -q '<body>' edited/report.html && sed -n '/<body>/{n;p;q}' edited/report.html | grep -q "The data was modified after the run" ||
    fail "report.html does not lead with it"
json_get edited/summary.json 'this.warnings[0]' | grep -q "^The data was modified after the run" ||
    fail "summary.json warnings[0]: $(json_get edited/summary.json 'this.warnings[0]')"
# a merge of an accepted shard carries the sentence on to whatever judges the merged directory
"$COMPARE" merge --accept-modified --out m-accepted edited s2 > /dev/null 2> merge.err ||
    fail "merge --accept-modified: $(cat merge.err)"
rc=0; "$COMPARE" gate --from m-accepted > /dev/null 2> gate2.err || rc=$?
[ "$rc" -le 4 ] || fail "gate --from a merge of accepted shards: exit $rc: $(cat gate2.err)"
head -1 m-accepted/gate.md | grep -q "The data was modified after the run: .*edited/runs.jsonl:2" ||
    fail "merged gate.md's first line: $(head -1 m-accepted/gate.md)"
# lines the schedule does not allow stay refused in the merged directory unless accepted there
"$COMPARE" merge --accept-modified --out m-forged forged s2 > /dev/null 2> merge.err ||
    fail "merge --accept-modified of a forged shard: $(cat merge.err)"
rc=0; "$COMPARE" gate --from m-forged > /dev/null 2> gate3.err || rc=$?
assert_eq "$rc" 2 "gate --from a merge holding a forged line"
grep -q "m-forged/runs.jsonl:5: version 'zzz'" gate3.err || fail "gate on the merged forged line: $(cat gate3.err)"

# counters count during the timed runs, so their lines carry the gate's extra rounds too: a
# gate that confirms (a 0.01% threshold makes the row borderline) with the counter path on
# (the test hook's software event) judges its own data, and so does gate --from
sed 's/"probe_timeout": 20}/"probe_timeout": 20, "instructions": {"source": "counters"},\n "gate": {"thresholds": {"throughput": 0.01}}}/' spec.json > cspec.json
sed -i 's/"axes": {"payload": \[64, 512\]}/"axes": {"payload": [64]}/' grid.json
rc=0; PAIRBENCH_COST_EVENT=task-clock "$COMPARE" gate --spec cspec.json --no-pin --budget 4s --out cg > /dev/null 2> cg.err || rc=$?
if [ $rc -eq 2 ] && grep -q 'perf_event_open' cg.err; then
    echo "skipped: counters: software perf events cannot be opened here"
else
    case $rc in 0 | 1 | 4) ;; *) fail "gate with counters and extra rounds: exit $rc: $(tail -3 cg.err)" ;; esac
    [ "$(json_get cg/meta.json 'this.confirmation.rows[Object.keys(this.confirmation.rows)[0]]')" -gt 0 ] ||
        echo "note: the row took no extra rounds this time"
    rc2=0; "$COMPARE" gate --from cg > /dev/null 2> cgf.err || rc2=$?
    assert_eq "$rc2" "$rc" "gate --from the counters gate's own data: $(tail -1 cgf.err)"
fi
echo "modified datasets refused, and named when accepted"
