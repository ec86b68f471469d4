#!/bin/sh
# pairbench-test: untimed
# Faults of the driver: killed by SIGKILL mid-run, hanging past its timeout, printing no JSON,
# printing broken JSON, exiting 1, printing JSON without a result. Each time the run is
# recorded failed with its reason, the row is failed, the other row of the same run completes,
# compare exits 3, and nothing is left running.
. "$(dirname "$0")/../lib.sh"
need node

cat > "$T/grid.json" <<JSON
{"name": "faults", "defaults": {"protocol": "tcp", "connections": 1, "serve": true},
 "axes": {"payload": [64, 128]}}
JSON

for mode in kill9 hang nojson badjson exit1 partial; do
    cat > "$T/spec-$mode.json" <<JSON
{"versions": [
   {"name": "baseline"},
   {"name": "candidate", "driver": "$TOP/tests/faulty-driver.sh $mode $DRIVER"}],
 "grids": ["$T/grid.json"], "runs": 2, "warmup": 0.05, "duration": 0.2, "grace": 1}
JSON
    rc=0
    "$COMPARE" run --spec "$T/spec-$mode.json" --out "$T/out-$mode" > "$T/$mode.out" 2> "$T/$mode.err" || rc=$?
    [ $rc -eq 3 ] || { cat "$T/$mode.err" >&2; fail "$mode: compare exited $rc, expected 3"; }
    case $mode in
    kill9) want='signal 9' ;;
    hang) want='timeout after' ;;
    nojson) want='bad JSON on stdout: nothing printed' ;;
    badjson) want='bad JSON on stdout: line' ;;
    exit1) want='exit 1: faulty-driver: refusing on purpose' ;;
    partial) want='bad JSON on stdout: expected a result object with a numeric "throughput"' ;;
    esac
    got=$(node -e '
const lines=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
const bad=lines.filter(l=>l.status==="failed");
const good=lines.filter(l=>l.status==="ok");
const want=process.argv[2];
console.log([lines.length, bad.length, good.length,
  bad.every(l=>l.version==="candidate" && l.result===null),
  bad.every(l=>l.version==="candidate" && typeof l.reason==="string" && l.reason.startsWith(want)),
  good.every(l=>l.result!==null && l.reason===null)].join(" "));
' "$T/out-$mode/runs.jsonl" "$want")
    assert_eq "$got" "8 2 6 true true true" "$mode: runs.jsonl (lines, failed, ok, results, reasons)"
    rows=$(json_get "$T/out-$mode/summary.json" 'this.rows.map(r=>r.params.payload+":"+r.status).join(" ")')
    assert_eq "$rows" "64:ok 128:failed" "$mode: row status"
    grep -qF -- "- 1 of 2 configurations complete; 6 of 8 runs ok, 2 failed." "$T/out-$mode/report.md" ||
        fail "$mode: report.md does not count the 2 failed runs: $(grep -i 'runs ok' "$T/out-$mode/report.md")"
    for round in 1 2; do
        grep -qF -- "\`candidate\`, round $round: $want" "$T/out-$mode/report.md" ||
            fail "$mode: report.md does not give round $round's reason '$want'"
    done
done
# the hanging driver's child was in the driver's process group: it must be gone
if pgrep -f 'sleep 6001' > /dev/null; then
    pkill -f 'sleep 6001'; fail "a hung driver's child was left running"
fi
echo "driver faults recorded, rows failed, other rows complete"
