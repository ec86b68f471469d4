#!/bin/sh
# pairbench-test: untimed
# Under `ulimit -n 64` a 200-connection row cannot hold its connections: every run is `failed`
# with the reason in words (connections held below the configured count, or connect errors
# past the 1% limit), the measured results are kept, and the row's verdict is `failed`, never
# `~`. The server waits 1 ms per reply, so no run can count enough operations to hide the
# connect errors under the 1% limit. Cost: 4 runs of 0.1 + 0.5 s, about 4 s.
. "$(dirname "$0")/../lib.sh"
need node
cat > "$T/grid.json" <<JSON
{"name": "fd", "defaults": {"protocol": "tcp", "connections": 200, "workers": 2, "payload": 64}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "baseline", "server": {"tcp": "$DRIVER serve tcp --port {port} --delay-us 1000"}},
   {"name": "candidate", "server": {"tcp": "$DRIVER serve tcp --port {port} --delay-us 1000"}}],
 "grids": ["$T/grid.json"], "runs": 2, "warmup": 0.1, "duration": 0.5}
JSON
rc=0
(ulimit -n 64 && exec "$COMPARE" run --spec "$T/spec.json" --out "$T/out") > /dev/null 2> "$T/stderr" || rc=$?
assert_eq "$rc" 3 "exit code ($(tail -n 3 "$T/stderr"))"
node -e '
const l=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
const bad=l.filter(x=>x.status!=="failed"||x.result===null||
  !/held [0-9]+ of 200|connect [0-9]+\) in [0-9]+ operations, more than the 1% limit/.test(x.reason));
if (l.length<4||bad.length) { console.error(JSON.stringify(bad)); process.exit(1); }' "$T/out/runs.jsonl" \
    || fail "runs are not failed with the reason"
assert_eq "$(json_get "$T/out/summary.json" 'this.rows[0].metrics.throughput.vs_baseline.candidate.verdict')" \
    failed "verdict"
exit 0
