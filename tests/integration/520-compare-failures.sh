#!/bin/sh
# pairbench-test: untimed
# Failed runs are recorded, never dropped: a version whose driver exits non-zero for one
# configuration, prints garbage for another, hangs past the timeout for a third and is killed
# by a signal for a fourth. Those runs are `failed` with the reason, their rows are `failed`,
# the first row completes, and compare exits 3 with every report written. A server that never becomes ready fails its runs with the
# server command and the tail of its stderr.
. "$(dirname "$0")/../lib.sh"
need node

# grace 2.5 s (compare makes it at least the driver timeout 0.5 s + 3 s): the hanging runs cost 3.8 s each, and a loaded machine can take more than a
# 0.5 s grace to start, connect and finish a 0.3 s run (good runs timed out).
# A driver that honours the contract (<driver> --config FILE) and misbehaves by payload.
cat > "$T/flaky-driver" <<SH
#!/bin/sh
case "\$(cat "\$2")" in
*'"payload": 1000,'*) echo "flaky: refusing this one" >&2; exit 1 ;;
*'"payload": 2000,'*) echo "this is not json"; exit 0 ;;
*'"payload": 3000,'*) exec sleep 30 ;;
*'"payload": 4000,'*) kill -KILL \$\$ ;;
esac
exec "$DRIVER" tcp --config "\$2"
SH
chmod +x "$T/flaky-driver"
cat > "$T/grid.json" <<JSON
{"name": "faults", "defaults": {"protocol": "tcp", "connections": 1, "window": 1, "timeout": 0.5},
 "axes": {"payload": [64, 1000, 2000, 3000, 4000]}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "good", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
   {"name": "flaky", "driver": "$T/flaky-driver", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 2, "warmup": 0.1, "duration": 0.2, "grace": 2.5}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/out" > "$T/stdout" 2> "$T/stderr" || rc=$?
assert_eq "$rc" 3 "exit code with failed runs"
for f in runs.jsonl meta.json summary.json report.md report.html; do
    [ -s "$T/out/$f" ] || fail "missing $f after failures"
done
assert_eq "$(node -e '
const l=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
l.filter(x=>x.status!=="ok"&&x.version==="good").forEach(x=>console.error("unexpected: "+x.label+": "+x.reason));
const r=p=>l.filter(x=>x.version==="flaky"&&x.result===null&&x.status==="failed"&&x.label.includes(p)).map(x=>x.reason.replace(/[0-9.]+ s/,"N s"));
console.log(l.length, l.filter(x=>x.status==="ok").length,
  JSON.stringify([r("1000 B")[0], r("2000 B")[0], r("3000 B")[0], r("4000 B")[0]]));' "$T/out/runs.jsonl")" \
    '20 12 ["exit 1: flaky: refusing this one","bad JSON on stdout: line 1 column 4: '"'"'['"'"' or '"'"'{'"'"' expected near '"'"'this'"'"'","timeout after N s","signal 9 (Killed)"]' \
    "recorded failures"
assert_eq "$(json_get "$T/out/summary.json" 'this.rows.map(r=>r.status).join(" ")')" \
    "ok failed failed failed failed" "row status"
grep -qF -- "- 1 of 5 configurations complete; 12 of 20 runs ok, 8 failed." "$T/out/report.md" ||
    fail "report.md does not count the 8 failed runs: $(grep -i 'runs ok' "$T/out/report.md")"
grep -qF -- "\`flaky\`, round 1: exit 1: flaky: refusing this one" "$T/out/report.md" ||
    fail "report.md does not give the first failed run's reason"
grep -q "exit 1: flaky" "$T/stderr" || fail "stderr does not give the failure reason"

# a server that never answers: its runs fail with the command and its stderr's tail
cat > "$T/grid1.json" <<JSON
{"name": "one", "defaults": {"protocol": "tcp"}}
JSON
cat > "$T/spec2.json" <<JSON
{"versions": [
   {"name": "good", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
   {"name": "mute", "server": {"tcp": "sh -c 'echo listening soon >&2; exec sleep 30' {port}"}}],
 "grids": ["$T/grid1.json"], "runs": 1, "warmup": 0.1, "duration": 0.2, "probe_timeout": 0.5}
JSON
rc=0
"$COMPARE" run --spec "$T/spec2.json" --out "$T/out2" > /dev/null 2> "$T/stderr2" || rc=$?
assert_eq "$rc" 3 "exit code when a server never becomes ready"
reason=$(node -e '
const l=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
console.log(l.filter(x=>x.version==="mute")[0].reason);' "$T/out2/runs.jsonl")
case "$reason" in
"server not ready after 0.5 s: 'sh -c 'echo listening soon >&2; exec sleep 30' "*"connect '127.0.0.1:"*"; stderr: listening soon") ;;
*) fail "unexpected reason: $reason" ;;
esac
if pgrep -f "exec sleep 30" > /dev/null; then fail "a server outlived its run"; fi
