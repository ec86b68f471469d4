#!/bin/sh
# pairbench-test: timed
# Sharded runs: a 3-configuration grid (reference TCP echo server, candidate with a 5 ms reply
# delay: at most 200 round trips/s, so even a baseline run starved on a loaded machine stays far
# above it and the ranges stay disjoint) run unsharded and as --shard 1/2 + 2/2 (through
# ci/slurm/shards.sh's task mode); `compare merge` gives exactly the unsharded configuration set,
# the same report rows (structure, not figures) and one dataset. Refused: a missing shard, a
# shard given twice, shards whose settings differ, a non-empty --out.
. "$(dirname "$0")/../lib.sh"
need node
cd "$T"
# private copies: a rebuild of bin/ during the test cannot pull the binaries away
cp "$DRIVER" "$T/driver"; DRV=$T/driver
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare
cat > grid.json <<'JSON'
{"name": "merge-small", "defaults": {"protocol": "tcp", "connections": 1, "workers": 1},
 "axes": {"payload": [64, 512, 2048]}}
JSON
cat > spec.json <<JSON
{"versions": [
  {"name": "baseline", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}},
  {"name": "candidate", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port} --delay-us 5000"}}],
 "grids": ["$T/grid.json"], "runs": 5, "warmup": 0.1, "duration": 0.25, "grace": 10, "probe_timeout": 20}
JSON
"$COMPARE" run --spec spec.json --out full > /dev/null 2> full.err || fail "unsharded run: $(tail -3 full.err)"
# the shards run through the Slurm recipe's array-task mode (what each node would run)
for k in 1 2; do
    (cd "$TOP" && SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=2 PAIRBENCH_SPEC="$T/spec.json" \
        PAIRBENCH_RESULTS="$T/slurm" PAIRBENCH_COMPARE="$COMPARE" sh ci/slurm/shards.sh) \
        > /dev/null 2> "s$k.err" || fail "shard $k: $(tail -3 "s$k.err")"
    ln -s "slurm/shard-$k" "s$k"
done

# the shards split the configurations
n1=$(json_get s1/meta.json 'this.configs.length'); n2=$(json_get s2/meta.json 'this.configs.length')
assert_eq "$((n1 + n2))" 3 "configurations over both shards"
[ "$n1" -ge 1 ] && [ "$n2" -ge 1 ] || fail "a shard is empty"

assert_exit 0 "$COMPARE" merge --out merged s2 s1 > merge.out
grep -q "merged 2 shards (3 configurations) into merged" merge.out || fail "merge stdout: $(cat merge.out)"
for f in runs.jsonl meta.json summary.json report.md report.html; do
    [ -s "merged/$f" ] || fail "merged/$f missing"
done
ids() { json_get "$1" 'this.rows.map(r => r.config + " " + r.label + " " + Object.keys(r.metrics).join(",")).join("\n")'; }
assert_eq "$(ids merged/summary.json)" "$(ids full/summary.json)" "merged rows vs unsharded rows"
cfgs() { json_get "$1" 'this.configs.map(c => c.id + ":" + c.index).join(" ")'; }
assert_eq "$(cfgs merged/meta.json)" "$(cfgs full/meta.json)" "merged configurations"
assert_eq "$(wc -l < merged/runs.jsonl)" "$(wc -l < full/runs.jsonl)" "dataset lines"
assert_eq "$(json_get merged/meta.json 'this.settings.shard')" "null" "merged shard setting"
assert_eq "$(json_get merged/meta.json 'this.shards.map(s => s.k + "/" + s.n).join(" ")')" "2/2 1/2" "shards recorded"
assert_eq "$(json_get merged/meta.json 'this.command_line.includes("--shard")')" "false" "reproduce command"
# the Reproduce line measures into the merged directory, never into a shard's
assert_eq "$(json_get merged/meta.json 'this.command_line[this.command_line.indexOf("--out") + 1]')" \
    "$(cd merged && pwd -P)" "reproduce command's --out"
grep -q -- "--out $(cd merged && pwd -P)\$" merged/report.md || fail "report.md reproduce: $(grep -- --out merged/report.md)"
sha=$(sha256sum merged/runs.jsonl | cut -d' ' -f1)
assert_eq "$(json_get merged/meta.json 'this.dataset.sha256')" "$sha" "dataset hash"
# the report has the same table rows (labels) as the unsharded one
rows() { grep '^| tcp' "$1" | cut -d'|' -f2 | sort; }
assert_eq "$(rows merged/report.md)" "$(rows full/report.md)" "report rows"
# the paired comparison survived: the delayed candidate regressed in every row (5 runs a
# side: 3 cannot keep the row's family of timed metrics within 0.05)
assert_eq "$(json_get merged/summary.json 'this.rows.map(r => r.metrics.throughput.vs_baseline.candidate.verdict).join(" ")')" \
    "regressed regressed regressed" "merged verdicts"

# a real run directory (the merged one) goes into a drift history: one night, no step; 3
# configurations x 10 series (the 5 base metrics, server CPU per operation: compare started
# the servers, and its context switches, page faults and CPU migrations per operation, and
# the longest reply gap, stall; no decay: a 0.25 s window has fewer than 5 intervals)
assert_exit 0 "$COMPARE" drift --history hist --add merged > drift.out 2> drift.err
grep -q "drift: 1 nights (0 in another environment, marked), 30 series" drift.out || fail "drift: $(cat drift.out drift.err)"
[ -f hist/runs/*/summary.json ] && [ -s hist/drift.html ] || fail "history layout"

# refusals
assert_exit 2 "$COMPARE" merge --out m2 s1 2> e.txt
grep -q "shard 2/2 is missing: merge needs all 2 shards" e.txt || fail "missing shard: $(cat e.txt)"
assert_exit 2 "$COMPARE" merge --out m2 s1 s1 2> e.txt
grep -q "shard 1/2 given twice" e.txt || fail "duplicate shard: $(cat e.txt)"
mkdir s2b && cp s2/runs.jsonl s2b/ && node -e '
const fs = require("fs"); const m = JSON.parse(fs.readFileSync("s2/meta.json"));
m.settings.duration = 2; fs.writeFileSync("s2b/meta.json", JSON.stringify(m));'
assert_exit 2 "$COMPARE" merge --out m2 s1 s2b 2> e.txt
grep -q "differ in their settings" e.txt || fail "settings mismatch: $(cat e.txt)"
assert_exit 2 "$COMPARE" merge --out merged s1 s2 2> e.txt
grep -q "not empty" e.txt || fail "non-empty out: $(cat e.txt)"
assert_exit 2 "$COMPARE" merge --out m3 full 2> e.txt
grep -q 'settings.shard: expected "K/N"' e.txt || fail "unsharded input: $(cat e.txt)"
echo ok
