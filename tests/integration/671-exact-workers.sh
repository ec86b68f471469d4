#!/bin/sh
# pairbench-test: untimed
# A server of several worker processes is not counted exact (docs/statistics.md "Exact
# counts"): nginx with 2 workers at 8 connections, A/A (two versions, one nginx). Which worker
# serves a connection follows scheduling, so each count either shows two processes sharing the
# window's work or, when one worker took every connection, a repeat of the seed that differs;
# a line is exact only when one process did the work and its repeat agreed within its
# tolerance (one worker took every connection both times: the count was shown to repeat);
# every other line is counted but not exact and says which; the A/A row is never regressed (before: exact in 4 of 4, seed pairs up to 0.66% apart, 1 of 4
# A/A rows regressed).
# Cost: about 30 s on 2 shared cores (small request counts).
. "$(dirname "$0")/../lib.sh"
need nginx
need valgrind
need node

mkdir -p "$T/ng/tmp" && head -c 4096 /dev/zero | tr '\0' x > "$T/ng/4k"
user=""
[ "$(id -u)" = 0 ] && user="user root;"
cat > "$T/ng/nginx.sh" <<SH
#!/bin/sh
cat > "$T/ng/nginx-\$1.conf" <<CONF
daemon off;
worker_processes 2;
$user
pid $T/ng/nginx-\$1.pid;
error_log $T/ng/error.log warn;
events { worker_connections 64; }
http { access_log off; keepalive_requests 1000000; client_body_temp_path $T/ng/tmp/b;
  proxy_temp_path $T/ng/tmp/p; fastcgi_temp_path $T/ng/tmp/f; uwsgi_temp_path $T/ng/tmp/u;
  scgi_temp_path $T/ng/tmp/s; server { listen 127.0.0.1:\$1; root $T/ng; } }
CONF
exec nginx -p "$T/ng" -c "$T/ng/nginx-\$1.conf" -e "$T/ng/error.log"
SH
chmod +x "$T/ng/nginx.sh"
echo '{"name": "ng", "defaults": {"protocol": "http", "path": "/4k", "connections": 8}}' > "$T/grid.json"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "a", "server": {"http": "$T/ng/nginx.sh {port}"}},
 {"name": "b", "server": {"http": "$T/ng/nginx.sh {port}"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 1, "requests": 400, "warmup_requests": 100, "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/o" > /dev/null 2> "$T/o.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/o.err" >&2; fail "compare run exited $rc"; }

node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
for (const x of l) { const i = x.instructions || {}, f = i.fixed || {};
  const r = f.repeat || {}, shown = f.exact === true && typeof r.change === "number" &&
    Math.abs(r.change) <= r.tolerance;
  console.log([x.version, x.status, i.processes, f.exact === true ? (shown ? "shown" : "unshown") : f.exact,
    f.reason].join("|")); }' "$T/o" > "$T/lines"
[ "$(grep -c '^[ab]|ok|3|\(false\|shown\)|' "$T/lines")" = 2 ] ||
    fail "expected both versions counted over 3 processes, exact only where the repeat agreed; got: $(cat "$T/lines")"
[ "$(grep -c "processes shared the window's work\|a repeat of seed 1 counted\||shown|" "$T/lines")" = 2 ] ||
    fail "expected each line to name the shared work or the differing repeat; got: $(cat "$T/lines")"
got=$(node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1] + "/summary.json", "utf8"));
const m = s.rows[0].metrics.instructions.vs_baseline.b;
console.log(m.exact.rule, m.verdict);' "$T/o")
case $got in
*" regressed" | *" improved") fail "nginx A/A: a verdict from differing counts: '$got'" ;;
"runs "*) ;;
# both lines exact, each shown to repeat: decided per seed pair, never regressed (above)
"seed pairs "*) grep -c '|shown|' "$T/lines" | grep -qx 2 || fail "nginx A/A: the pair rule without two shown repeats: '$got'" ;;
*) fail "nginx A/A: expected the runs' rule; got '$got'" ;;
esac
