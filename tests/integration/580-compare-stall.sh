#!/bin/sh
# pairbench-test: timed
# A candidate echo server that goes silent mid-run (tests/peers/stall_echo.py stops answering
# 0.3 s after the driver connects; grid timeout 1 s) is not measured as healthy: every
# candidate run is `failed` with a reason in words (timeouts, or a window cut short), its
# measured result is still kept in runs.jsonl, the baseline's runs are `ok`, the row's
# verdict is `failed`, report.md lists the reason and does not say that nothing weakens the
# measurement, and `compare gate` exits 1 (regression: the candidate's runs failed on what the
# driver measured while the baseline's ran the same load cleanly), not 0, 3 or "unstable".
# Cost: 4 runs of 0.1 + 0.6 s (+ 1 s timeout for the candidate), 10-45 s on a loaded machine
# (a disturbed round is repeated).
. "$(dirname "$0")/../lib.sh"
need node
need python3
cat > "$T/grid.json" <<JSON
{"name": "stall", "defaults": {"protocol": "tcp", "connections": 2, "payload": 64, "timeout": 1}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "baseline", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
   {"name": "candidate", "server": {"tcp": "python3 $TOP/tests/peers/stall_echo.py {port} 0.3"}}],
 "grids": ["$T/grid.json"], "runs": 2, "warmup": 0.1, "duration": 0.6}
JSON
rc=0
# no disturbed-round repeats: the run count below is exact on a loaded machine too
"$COMPARE" gate --spec "$T/spec.json" --budget 0 --no-instructions --disturbed-limit 1024 --out "$T/out" > "$T/gate.md" 2> "$T/stderr" || rc=$?
assert_eq "$rc" 1 "gate exit code with a stalled candidate ($(tail -n 3 "$T/stderr"))"
grep -q "compare: gate: exit 1: regression in 'tcp · 64 B · window1 · 2 clients' the candidate's runs failed: the driver judged the run failed" "$T/stderr" ||
    fail "gate reason: $(tail -n 1 "$T/stderr")"
grep -q "^\*\*Regression.\*\*" "$T/gate.md" || fail "gate.md does not open with the regression"
grep -q "the candidate's runs failed where the baseline's ran the same load cleanly: the driver judged the run failed: .*timed out" "$T/gate.md" ||
    fail "gate.md does not say the candidate failed: $(sed -n 3,6p "$T/gate.md")"
node -e '
const l=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
const bad=[];
for (const x of l) {
  if (x.version==="baseline" && x.status!=="ok") bad.push("baseline not ok: "+x.reason);
  if (x.version==="candidate") {
    if (x.status!=="failed") bad.push("candidate run "+x.round+" is "+x.status+": "+JSON.stringify(x.result));
    else if (!/timeouts|timed out|window|stall/.test(x.reason)) bad.push("reason does not say why: "+x.reason);
    if (x.result===null) bad.push("candidate run "+x.round+" lost its measured result");
  }
}
if (l.length<4) bad.push(l.length+" runs, expected at least 4 (more when a disturbed round is repeated)");
if (bad.length) { console.error(bad.join("\n")); process.exit(1); }' "$T/out/runs.jsonl" || fail "runs.jsonl"
assert_eq "$(json_get "$T/out/summary.json" 'this.rows[0].status')" failed "row status"
grep -q "Nothing known weakens" "$T/out/report.md" && fail "report.md says nothing weakens the measurement"
grep -Eq "timeouts|timed out" "$T/out/report.md" || fail "report.md does not give the failure reason: $(grep -i fail "$T/out/report.md" | head -5)"
grep -Eq "timeouts|timed out" "$T/stderr" || fail "stderr does not give the failure reason"
exit 0
