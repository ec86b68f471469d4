#!/bin/sh
# pairbench-test: timed
# compare gate --floors: per-row floors from `compare calibrate` raise a row's threshold to
# what its A/A noise lets the runs detect. A real calibration (the baseline against itself)
# writes calibration.json; a clear regression (300 µs per reply, about -90%) still fails the
# gate under it; a calibration whose throughput floor is 99% (a row too noisy to judge a
# -90% change) lets the same regression through — and a malformed floors file is refused.
. "$(dirname "$0")/../lib.sh"
need node
cd "$T"
cp "$DRIVER" "$T/driver"; DRV=$T/driver
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare
cat > grid.json <<'JSON'
{"name": "floors", "defaults": {"protocol": "tcp", "connections": 1, "workers": 1, "payload": 64}}
JSON
cat > slow.json <<JSON
{"versions": [
  {"name": "baseline", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}},
  {"name": "candidate", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port} --delay-us 300"}}],
 "grids": ["grid.json"], "runs": 4, "warmup": 0.1, "duration": 0.3, "grace": 10, "probe_timeout": 20}
JSON

# a real A/A calibration of the baseline
"$COMPARE" calibrate --spec slow.json --out cal > cal.out 2> cal.err || { cat cal.err >&2; fail "calibrate exited $?"; }
assert_eq "$(json_get cal/calibration.json '[this.schema, this.rows.length, this.rows[0].metrics.throughput.floor_pct >= 5,
    JSON.stringify(this.rows[0].params.payload)].join(" ")')" "pairbench.calibration/1 1 true 64" "calibration.json"
grep -q "| throughput |" cal/calibration.md || fail "calibration.md has no throughput row"
assert_eq "$(json_get cal/meta.json 'this.versions.map(v=>v.name).join(",")')" "baseline,baseline-again" "A/A versions"

# the measured floor becomes the row's throughput threshold (max of 5% and the floor), and the
# exit code follows the verdict judged against it (the floor itself depends on how noisy the
# machine was during the A/A run, so the verdict is read, not assumed)
rc=0
"$COMPARE" gate --spec slow.json --budget 0 --no-instructions --threshold throughput=5 --floors cal/calibration.json --out g1 \
    > g1.out 2> g1.err || rc=$?
want=$(json_get cal/calibration.json 'String(parseFloat(Math.max(5, this.rows[0].metrics.throughput.floor_pct).toPrecision(6)))')
line=$(grep "| candidate | throughput " g1/gate.md) || fail "gate.md has no candidate row: $(cat g1/gate.md)"
verdict=$(printf '%s\n' "$line" | sed -n "s/.*| candidate | throughput −[0-9.]*% \([a-z~]*\) ($want%).*/\1/p")
[ -n "$verdict" ] || fail "gate.md does not judge throughput against the floor $want%: $line"
case $verdict in
    regressed) [ $rc -eq 1 ] || fail "verdict regressed but exit $rc" ;;
    *) [ $rc -eq 0 ] || [ $rc -eq 4 ] || fail "verdict $verdict but exit $rc" ;;
esac

# a 99% floor does
node -e '
const fs=require("fs"); const c=JSON.parse(fs.readFileSync("cal/calibration.json","utf8"));
c.rows[0].params.duration = 9; c.rows[0].metrics.throughput.floor_pct = 99;
fs.writeFileSync("high.json", JSON.stringify(c));'
rc=0
"$COMPARE" gate --spec slow.json --budget 0 --no-instructions --threshold throughput=5 --floors high.json --out g2 > g2.out 2> g2.err || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 4 ] || { cat g2.err >&2; fail "with a 99% floor the gate exited $rc, expected 0 (or 4)"; }
grep -q "throughput −[0-9.]*% ~ (99%)\|(99%)" g2/gate.md || fail "gate.md does not show the 99% floor: $(cat g2/gate.md)"

# bad floors files
echo '{"schema": "other"}' > bad.json
assert_exit 2 "$COMPARE" gate --spec slow.json --floors bad.json --out g3 2> g3.err
grep -q "bad.json: \$.schema: expected \"pairbench.calibration/1\"" g3.err || fail "message: $(cat g3.err)"
echo "gate floors: measured, applied, refused when malformed"
