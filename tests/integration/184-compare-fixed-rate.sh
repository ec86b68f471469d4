#!/bin/sh
# pairbench-test: timed
# compare treats fixed-rate rows as first-class: a grid with "rate" runs the driver open loop
# (the runs' results carry the rate object, the label says "rate 1000/s"), and on such a row
# throughput is a setting, not a verdict: the gate judges what each request costs the server
# (server_cpu_us, gated by default on fixed-rate rows at 10%) and the tail (p99_us); the
# loaded machine's disturbance check is switched off (--disturbed-limit 64). The
# candidate server spends 100000 rounds of --work per request (~200 us, ten times the
# baseline's CPU per request) at the same achieved rate: compare gate exits 1 naming server
# CPU per operation, while the throughputs stay equal (achieved = target). Bad rate values
# exit 2 naming the key.
. "$(dirname "$0")/../lib.sh"
need node

cat > "$T/grid.json" <<JSON
{"name": "open", "defaults": {"protocol": "tcp", "connections": 2, "payload": 64, "rate": 1000}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "baseline", "server": {"tcp": "$DRIVER serve tcp --port {port} --payload 64"}},
   {"name": "candidate", "server": {"tcp": "$DRIVER serve tcp --port {port} --payload 64 --work 100000"}}],
 "grids": ["$T/grid.json"], "runs": 5, "warmup": 0.2, "duration": 1.2}
JSON
rc=0
"$COMPARE" gate --spec "$T/spec.json" --budget 0 --no-instructions --no-pin --disturbed-limit 64 --out "$T/out" > "$T/stdout" 2> "$T/stderr" || rc=$?
[ $rc -eq 1 ] || { cat "$T/stderr" >&2; fail "compare gate exited $rc, expected 1 (regression)"; }
grep -q "rate 1000/s" "$T/out/report.md" || fail "report.md label lacks the rate"
echo "$(json_get "$T/out/summary.json" 'const m=this.rows[0].metrics; JSON.stringify({label: this.rows[0].label, tput: m.throughput.values, scpu: m.server_cpu_us.values, v: m.server_cpu_us.vs_baseline.candidate.verdict, th: m.server_cpu_us.threshold_pct})')"
assert_eq "$(json_get "$T/out/summary.json" 'const m=this.rows[0].metrics;
    [m.server_cpu_us.vs_baseline.candidate.verdict, m.server_cpu_us.threshold_pct,
     Math.abs(m.throughput.values.candidate.median / m.throughput.values.baseline.median - 1) < 0.02].join(" ")')" \
    "regressed 10 true" "server CPU per request regressed at the same achieved rate"
assert_eq "$(node -e '
const lines=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
console.log(lines.every(l => l.result.rate && l.result.rate.target === 1000 && l.result.config.rate === 1000));' "$T/out/runs.jsonl")" \
    true "every run open loop at 1000/s"
# the row's rate: one entry per ok run (5 runs of 2 versions), not_kept = the runs whose own
# result says the schedule was not kept
assert_eq "$(node -e '
const lines=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
const ok=lines.filter(l => l.status === "ok" && l.result && l.result.rate);
const r=JSON.parse(require("fs").readFileSync(process.argv[2],"utf8")).rows[0].rate;
console.log([r.target, r.runs, ok.length, r.not_kept === ok.filter(l => l.result.rate.kept === false).length].join(" "));' \
    "$T/out/runs.jsonl" "$T/out/summary.json")" "1000 10 10 true" \
    "summary row rate: $(json_get "$T/out/summary.json" 'this.rows[0].rate')"
grep -qi "server CPU" "$T/out/gate.md" || fail "gate.md does not name server CPU: $(cat "$T/out/gate.md")"

# the same gate on an A/A pair passes: throughput is not judged, server CPU/op within 10%
# (not asserted here: a timing result on a loaded machine; bench/open-loop.sh measures it)

# bad values
echo '{"defaults": {"protocol": "tcp", "rate": "150%"}}' > "$T/bad.json"
rc=0
"$COMPARE" run --spec "$T/spec.json" --grid "$T/bad.json" --out "$T/bad" > /dev/null 2> "$T/bad.err" || rc=$?
assert_eq "$rc" 2 "a percentage over 100"
grep -q 'defaults.rate' "$T/bad.err" && grep -q '"150%"' "$T/bad.err" || fail "message: $(cat "$T/bad.err")"
echo '{"defaults": {"protocol": "tcp", "rate": 100, "arrival": "bursty"}}' > "$T/bad2.json"
rc=0
"$COMPARE" run --spec "$T/spec.json" --grid "$T/bad2.json" --out "$T/bad2" > /dev/null 2> "$T/bad2.err" || rc=$?
assert_eq "$rc" 2 "a bad arrival"
grep -q "arrival" "$T/bad2.err" || fail "message: $(cat "$T/bad2.err")"
echo "ok: fixed-rate rows gate on server CPU per request"
