#!/bin/sh
# pairbench-test: untimed
# The counted-cost channel (compare run --instructions) against real servers under valgrind:
# redis-server and valkey-server over TLS with RESP3, nginx with a master and a worker process,
# and the reference servers (driver serve tcp|http|ws). Each counted run records exactly the
# requested operations, a plausible instructions/op with its source, the processes counted
# (nginx: its worker too) and the functions; summary.json, report.md and report.html carry the
# metric. Without valgrind the counted runs fail with a reason naming the version and what to
# install while the timed runs complete. The hardware-counter path is only detected here.
# Cost: about 60 s on 2 shared cores (small request counts, one counted run per version).
. "$(dirname "$0")/../lib.sh"
need redis-server
need valkey-server
need nginx
need valgrind
need node
need openssl
sh "$TOP/tests/certs.sh" "$T/pki" > /dev/null

settings='"instructions": {"runs": 1, "requests": 300, "warmup_requests": 100, "idle_s": 0.2}'

# 1. redis and valkey over TLS, RESP3
cat > "$T/grid.json" <<JSON
{"name": "tls", "defaults": {"protocol": "redis", "transport": "tls", "resp": 3,
  "command": "SET", "cacert": "$T/pki/ca.pem", "cert": "$T/pki/server.pem",
  "key": "$T/pki/server.key"}}
JSON
tls="--port 0 --tls-port {port} --bind 127.0.0.1 --tls-cert-file {cert} --tls-key-file {key} --tls-ca-cert-file {cacert} --tls-auth-clients no --save '' --appendonly no --dir {dir}"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "redis", "server": {"redis": "redis-server $tls"}},
              {"name": "valkey", "server": {"redis": "valkey-server $tls"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"enabled": false, "runs": 1, "requests": 300, "warmup_requests": 100,
                  "idle_s": 0.2}}
JSON
rc=0
# the spec's settings say off; --instructions turns the channel on
# as from a login shell: LOGNAME and USER set. redis-server rewrites its environment for its
# process title, after which valgrind named its vgdb FIFOs "by-???" where it had made them
# "by-root", and every counted redis run died ("vgdb FIFO cannot be opened")
LOGNAME=root USER=root "$COMPARE" run --spec "$T/spec.json" --instructions --out "$T/tls" > /dev/null 2> "$T/tls.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/tls.err" >&2; fail "compare run --instructions over TLS exited $rc"; }
grep -q "no hardware counters\|hardware counters not usable" "$T/tls.err" &&
    echo "skipped: the hardware-counter path: $(grep -o 'perf_event_open[^;]*' "$T/tls.err")"
check_counted() { # dir expected-count min-processes
    node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
const bad = l.filter(x => !(x.status === "ok" && x.instructions.ops === 300 &&
  x.instructions.per_op > 100 && x.instructions.per_op < 1e6 &&
  /^valgrind-/.test(x.instructions.source) && x.instructions.processes >= +process.argv[3] &&
  Object.keys(x.instructions.functions).length > 3));
console.log(l.length, bad.length ? JSON.stringify(bad[0]).slice(0, 600) : "ok");' "$1" "$2" "$3"
}
assert_eq "$(check_counted "$T/tls" 2 1)" "2 ok" "counted TLS runs"
assert_eq "$(json_get "$T/tls/summary.json" '
const m = this.rows[0].metrics.instructions;
[m.values.redis.n, m.values.valkey.n, m.vs_baseline.valkey.functions.length > 0,
 m.threshold_pct, m.higher_is_better].join(" ")')" "1 1 true 1 false" "summary instructions"
grep -q "## Instructions per operation (counted)" "$T/tls/report.md" || fail "report.md section"
grep -q "cannot see waiting, system calls" "$T/tls/report.md" || fail "report.md limits"
grep -q "### Where the instructions went" "$T/tls/report.md" || fail "report.md functions"
grep -q 'id="instructions"' "$T/tls/report.html" || fail "report.html section"
grep -q 'data-metric="instructions"' "$T/tls/report.html" || fail "report.html chart"
# Debian ships both servers as links to their -check-rdb binaries, without symbols: the
# binaries are named as the commands named them, their unknown code is not listed, and one
# line per binary names the package whose -dbgsym would name the functions
assert_eq "$(json_get "$T/tls/summary.json" '
const b = this.rows[0].metrics.instructions.binaries;
["redis", "valkey"].map(v => [b[v].name, b[v].path, b[v].symbols, b[v].package].join(",")).join(" ")')" \
    "redis-server,/usr/bin/redis-check-rdb,false,redis-tools valkey-server,/usr/bin/valkey-check-rdb,false,valkey-tools" \
    "the counted binaries"
! grep -q "check-rdb)" "$T/tls/runs.jsonl" || fail "runs.jsonl names a function by the link's target"
! grep -q "unknown (valkey-server)\|unknown (redis-server)" "$T/tls/report.md" "$T/tls/report.html" ||
    fail "a report lists the unknown code of a binary without symbols"
grep -qF '`valkey-server` (/usr/bin/valkey-check-rdb) has no symbols, so its own code is left out of the list above: install `valkey-tools-dbgsym`' \
    "$T/tls/report.md" || fail "report.md does not name valkey's debug symbols: $(sed -n '/Where the instructions went/,/^## /p' "$T/tls/report.md")"
assert_eq "$(grep -c "has no symbols, so its own code" "$T/tls/report.md")" 2 "one line per binary"
grep -q "<p>.*valkey-server.* has no symbols" "$T/tls/report.html" || fail "report.html does not name valkey's debug symbols"
grep -q "instructions/op" "$T/tls/summary.csv" 2>/dev/null || grep -q "instructions" "$T/tls/summary.csv" ||
    fail "summary.csv lacks the metric"

# 2. nginx: master and worker, both counted
mkdir -p "$T/ng" && head -c 4096 /dev/zero | tr '\0' x > "$T/ng/4k"
# compare starts nginx on the port it chose: the script puts that port into the configuration
# (nginx_conf keeps the worker root when run as root: as nobody it is out of vgdb's reach)
nginx_conf "$T/ng/nginx.conf.in" "$T/ng" "    server { listen 127.0.0.1:@PORT@; root $T/ng; }"
cat > "$T/ng/nginx.sh" <<SH
#!/bin/sh
sed "s/@PORT@/\$1/g" "$T/ng/nginx.conf.in" > "$T/ng/nginx-\$1.conf"
exec nginx -p "$T/ng" -c "$T/ng/nginx-\$1.conf" -e "$T/ng/error.log"
SH
chmod +x "$T/ng/nginx.sh"
echo '{"name": "ng", "defaults": {"protocol": "http", "path": "/4k"}}' > "$T/ng-grid.json"
cat > "$T/ng-spec.json" <<JSON
{"versions": [{"name": "nginx", "server": {"http": "$T/ng/nginx.sh {port}"}}],
 "grids": ["$T/ng-grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3, $settings}
JSON
rc=0
"$COMPARE" run --spec "$T/ng-spec.json" --out "$T/ng-out" > /dev/null 2> "$T/ng.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/ng.err" >&2; fail "compare run nginx exited $rc"; }
assert_eq "$(check_counted "$T/ng-out" 1 2)" "1 ok" "counted nginx master and worker"

# 3. the reference servers. valgrind cannot run an AddressSanitizer build: on the sanitized
# pass the plain build's driver (made by the first pass) serves, and without one this part
# is left out, saying so.
serve_driver=$(valgrind_driver)
[ -n "$serve_driver" ] || echo "skipped: reference servers: no plain build of the driver for valgrind"
if [ -n "$serve_driver" ]; then
echo '{"name": "serve", "defaults": {}, "axes": {"protocol": ["tcp", "http", "ws"]}}' > "$T/s-grid.json"
cat > "$T/s-spec.json" <<JSON
{"versions": [{"name": "ref", "server": {"tcp": "$serve_driver serve tcp --port {port}",
   "http": "$serve_driver serve http --port {port}", "ws": "$serve_driver serve ws --port {port}"}}],
 "grids": ["$T/s-grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3, $settings}
JSON
rc=0
"$COMPARE" run --spec "$T/s-spec.json" --out "$T/s-out" > /dev/null 2> "$T/s.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/s.err" >&2; fail "compare run reference servers exited $rc"; }
assert_eq "$(check_counted "$T/s-out" 3 1)" "3 ok" "counted reference servers"
# the driver is built with -g: named, and no hint
assert_eq "$(json_get "$T/s-out/summary.json" '
const b = this.rows[0].metrics.instructions.binaries.ref; [b.name, b.symbols, b.package].join(",")')" \
    "driver,true," "the reference server's binary"
! grep -q "has no symbols" "$T/s-out/report.md" || fail "a hint for a binary with symbols"
fi

# 4. no valgrind: the counted run fails with what to install, the timed run completes
mkdir -p "$T/bin" && ln -s "$(command -v redis-server)" "$T/bin/redis-server"
echo '{"name": "plain", "defaults": {"protocol": "redis", "command": "SET"}}' > "$T/p-grid.json"
cat > "$T/p-spec.json" <<JSON
{"versions": [{"name": "plain-redis", "server": {"redis": "redis-server --port {port} --save '' --appendonly no --dir {dir}"}}],
 "grids": ["$T/p-grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3, $settings}
JSON
rc=0
PATH="$T/bin" "$COMPARE" run --spec "$T/p-spec.json" --out "$T/p-out" > /dev/null 2> "$T/p.err" || rc=$?
assert_eq "$rc" 3 "exit code without valgrind"
grep -q "version 'plain-redis' not counted: valgrind cannot be run (install it: apt-get install valgrind)" \
    "$T/p-out/runs.jsonl" || fail "no reason naming the version and valgrind: $(cat "$T/p-out/runs.jsonl")"
assert_eq "$(json_get "$T/p-out/summary.json" '
const m = this.rows[0].metrics;
[m.throughput.values["plain-redis"].n, Object.keys(m.instructions.values).length,
 Object.keys(m.instructions.vs_baseline).length].join(" ")')" \
    "1 0 0" "the timed run completes; no instructions value from the failed counted run"
