#!/bin/sh
# pairbench-test: untimed
# A sequence run interrupted inside a version's round (SIGINT once its second line is written)
# is continued by --resume: the round cut short runs again whole, from step 1 on a new server,
# and the report is rendered from the dataset (its repeated steps accepted, the newest lines
# judged); every (version, round) then has its 3 steps in order on one server process. Cost:
# about 3 s (the reference TCP server, 3 steps of 3000 requests, 2 rounds).
. "$(dirname "$0")/../lib.sh"
need node
cat > "$T/grid.json" <<JSON
{"name": "steps", "defaults": {"protocol": "tcp", "connections": 2, "payload": 64, "requests": 3000},
 "axes": {"timeout": [5, 6, 7]}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port} --payload 64"}},
   {"name": "b", "server": {"tcp": "$DRIVER serve tcp --port {port} --payload 64"}}],
 "grids": ["$T/grid.json"], "runs": 2, "warmup": 0, "sequence": true}
JSON
"$COMPARE" run --spec "$T/spec.json" --out "$T/out" > "$T/run1.out" 2> "$T/run1.err" &
pid=$!
PIDS="$PIDS $pid"
i=0
while [ "$(cat "$T/out/runs.jsonl" 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 600 ]; do
    sleep 0.05
    i=$((i + 1))
done
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
lines=$(wc -l < "$T/out/runs.jsonl")
echo "interrupted with $lines lines (exit $rc)"
[ "$rc" = 3 ] || [ "$lines" = 12 ] || fail "the interrupted run exited $rc with $lines lines"
"$COMPARE" run --spec "$T/spec.json" --resume --out "$T/out" > "$T/run2.out" 2> "$T/run2.err" ||
    fail "--resume exited $?: $(tail -3 "$T/run2.err")"
grep -q '^## Step by step$' "$T/out/report.md" || fail "no Step by step in the resumed report"
node -e '
const fs = require("fs");
const lines = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const groups = {}, bad = [];
// the newest run of each (version, round): its steps come last, in order
for (const l of lines) {
  const k = l.version + " " + l.round;
  if (l.sequence.step === 1) groups[k] = [];
  (groups[k] = groups[k] || []).push(l);
}
for (const v of ["a", "b"]) for (const r of [1, 2]) {
  const g = groups[v + " " + r] || [];
  if (g.map(l => l.sequence.step).join(",") !== "1,2,3") bad.push(v + " round " + r + ": steps " + g.map(l => l.sequence.step));
  if (new Set(g.map(l => l.sequence.server_pid)).size !== 1) bad.push(v + " round " + r + ": more than one server");
  if (g.some(l => l.status !== "ok")) bad.push(v + " round " + r + ": a failed step");
}
if (lines.length < 12) bad.push(lines.length + " lines, expected at least 12");
if (bad.length) { console.error(bad.join("\n")); process.exit(1); }
' "$T/out/runs.jsonl" || fail "the resumed sequence's lines"
assert_eq "$(json_get "$T/out/summary.json" 'this.rows.map(r => r.status).join(" ")')" "ok ok ok" "rows after --resume"
echo "584-sequence-resume: ok"
