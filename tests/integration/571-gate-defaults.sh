#!/bin/sh
# pairbench-test: timed
# compare gate's defaults (issue 41, item 4): without flags the gate counts the servers'
# instructions per operation where valgrind is installed (the channel that decides on any
# host) and spends a budget (the spec's gate.budget here, 5 minutes when the spec has none);
# --no-instructions and --budget 0 turn both off: no counted metric, the planned rounds only.
# An A/A pair of the reference TCP server never exits 1. Cost: about 30 s.
. "$(dirname "$0")/../lib.sh"
need node
need valgrind
# the counted servers run under valgrind, which cannot run a sanitized build's driver
srv=$(valgrind_driver)
[ -n "$srv" ] || skip "no plain build of the driver for valgrind to run (make)"
cd "$T"
echo '{"defaults": {"protocol": "tcp"}}' > grid.json
cat > spec.json <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$srv serve tcp --port {port}"}},
              {"name": "b", "server": {"tcp": "$srv serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 2, "warmup": 0, "duration": 0.1,
 "gate": {"budget": "3s"}}
JSON
timed() { node -e 'const l=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);console.log(l.filter(x=>x.kind===undefined||x.kind==="timed").length)' "$1"; }

# an A/A row may be flagged by chance (at most 5% of rows by design, docs/statistics.md): a flag
# (exit 1) gets one more gate, and only a flag in both fails (about 1 in 400)
for attempt in 1 2; do
    rm -rf d
    set +e; "$COMPARE" gate --spec spec.json --no-pin --out d > d.out 2> d.err; rc=$?; set -e
    [ "$rc" = 1 ] && [ "$attempt" = 1 ] && { echo "A/A flagged by chance once: $(grep -i regressed d.out | head -2)"; continue; }
    break
done
case $rc in 0 | 4) ;; *) fail "A/A gate with defaults: exit $rc: $(tail -3 d.err)" ;; esac
grep -q "counting the servers' instructions per operation (--no-instructions" d.err ||
    fail "the gate did not count instructions by default: $(cat d.err)"
assert_eq "$(json_get d/summary.json 'this.rows.filter(r=>r.metrics.instructions).length')" 1 \
    "the counted metric in the default gate's summary"

for attempt in 1 2; do
    rm -rf z
    set +e; "$COMPARE" gate --spec spec.json --no-pin --no-instructions --budget 0 --out z > z.out 2> z.err; rc=$?; set -e
    [ "$rc" = 1 ] && [ "$attempt" = 1 ] && { echo "A/A flagged by chance once (--budget 0)"; continue; }
    break
done
case $rc in 0 | 4) ;; *) fail "A/A gate --budget 0: exit $rc: $(tail -3 z.err)" ;; esac
! grep -q "counting the servers' instructions" z.err || fail "--no-instructions still counted"
assert_eq "$(json_get z/summary.json 'this.rows.filter(r=>r.metrics.instructions).length')" 0 \
    "no counted metric with --no-instructions"
[ "$(timed z/runs.jsonl)" -eq 4 ] || fail "--budget 0 ran more than the planned 2 rounds a side: $(timed z/runs.jsonl) runs"
echo ok
