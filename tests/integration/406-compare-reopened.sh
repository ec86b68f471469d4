#!/bin/sh
# pairbench-test: untimed
# compare carries the driver's reopenings into the summary and the reports: redis-server
# with `timeout 1` (it closes connections idle past a second) against one without, at a
# fixed rate of 1 command per second on 2 connections: every run ok, the metric
# reopened_per_1k is in summary.json with a median above 0 for the first version and 0 for
# the second, and report.md and report.html say where connections were reopened.
# Cost: about 12 s (4 runs of 2.5 s).
. "$(dirname "$0")/../lib.sh"
need redis-server
need node
cd "$T"
cat > spec.json <<'JSON'
{"versions": [
  {"name": "idle-timeout", "server": {"redis": "redis-server --port {port} --save '' --appendonly no --timeout 1"}},
  {"name": "no-timeout", "server": {"redis": "redis-server --port {port} --save '' --appendonly no"}}],
 "grids": ["grid.json"], "runs": 2, "warmup": 0, "duration": 2.5}
JSON
cat > grid.json <<'JSON'
{"name": "idle", "defaults": {"protocol": "redis", "connections": 2, "workers": 1, "rate": 1}}
JSON
"$COMPARE" run --spec spec.json --out out > run.out 2> run.err ||
    { cat run.err >&2; fail "compare run exited $?"; }
assert_eq "$(json_get out/summary.json 'this.rows[0].status')" ok "row status"
assert_eq "$(json_get out/summary.json 'const v = this.rows[0].metrics.reopened_per_1k.values; [v["idle-timeout"].median > 0, v["no-timeout"].median].join(" ")')" \
    "true 0" "reopened_per_1k medians"
grep -q "Connections the server closed on purpose .* reopened by the driver in 1 of 1 configurations" out/report.md ||
    fail "report.md does not say where connections were reopened"
grep -q "reopened by the driver in 1 of 1 configurations" out/report.html ||
    fail "report.html does not say where connections were reopened"
echo "406-compare-reopened: ok"
