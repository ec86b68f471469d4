#!/bin/sh
# pairbench-test: untimed
# The Redis readiness probe takes only a status reply to PING as ready: a server that answers
# every command with "-ERR ..." is not ready, and the failed run's reason carries that reply
# (before, -ERR counted as ready and the runs measured an error-answering server).
. "$(dirname "$0")/../lib.sh"
need node
cd "$T"
cp "$DRIVER" "$T/driver"; DRV=$T/driver
cat > err-server.js <<'JS'
const net = require("net");
const port = Number(process.argv[2]);
net.createServer((s) => { s.on("data", () => s.write("-ERR not today\r\n")); s.on("error", () => {}); })
  .listen(port, "127.0.0.1");
JS
cat > grid.json <<'JSON'
{"name": "probe-err", "defaults": {"protocol": "redis", "command": "PING", "connections": 1, "workers": 1}}
JSON
cat > spec.json <<JSON
{"versions": [
  {"name": "baseline", "driver": "$DRV", "server": {"redis": "node $T/err-server.js {port}"}},
  {"name": "candidate", "driver": "$DRV", "server": {"redis": "node $T/err-server.js {port}"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.05, "duration": 0.2, "grace": 5, "probe_timeout": 2}
JSON
rc=0; "$COMPARE" run --spec spec.json --out e > run.out 2> run.err || rc=$?
assert_eq "$rc" 3 "compare run against an -ERR server: $(tail -3 run.err)"
grep -q "redis PING on '127.0.0.1:[0-9]*' answered '-ERR not today'" e/runs.jsonl ||
    fail "the reason does not carry the reply: $(json_get e/summary.json 'JSON.stringify(this.rows[0].failures)')"
echo "an -ERR reply to PING is not ready"
