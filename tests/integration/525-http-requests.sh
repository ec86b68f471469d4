#!/bin/sh
# pairbench-test: untimed
# HTTP as users call it, against a real nginx: the method, the extra headers, an inline body,
# a body from a file and the weighted paths all arrive as configured (nginx's own access log,
# a custom log_format with $request_method, $request_uri, $http_x_trace, $content_type,
# $content_length and $request_body; the body is read because the first server proxies to the
# second); a non-2xx answer fails the run naming the status; the same keys go through a
# compare grid to the driver (reference server: its PUT echo is checked byte for byte), and a
# bad weight or a framing header in a grid is refused before any run, naming key and value.
. "$(dirname "$0")/../lib.sh"
need nginx
need node

start_nginx nginx "
    log_format probe '\$request_method|\$request_uri|\$http_x_trace|\$content_type|\$content_length|\$request_body';
    server {
        listen 127.0.0.1:@PORT@;
        access_log $T/access.log probe;
        client_body_buffer_size 64k;
        location / { proxy_pass http://127.0.0.1:@PORT2@; }
    }
    server {
        listen 127.0.0.1:@PORT2@;
        access_log off;
        location / { return 200 'ok'; }
        location /fail { return 503; }
    }"
PORT=$NGINX_PORT
ERRS0='{"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0}'

# 1. PUT with headers and an inline body to two paths weighted 3:1
: > "$T/access.log"
"$DRIVER" http --port "$PORT" --method PUT --headers '{"X-Trace":"t-525","Content-Type":"text/plain"}' \
    --body 'hello-525' --paths '[{"path":"/a","weight":3},{"path":"/b?q=1","weight":1}]' \
    --requests 800 --warmup 0 --connections 2 --seed 7 > "$T/r1.json" ||
    fail "driver http PUT against nginx exited $?"
assert_eq "$(json_get "$T/r1.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
    "800 $ERRS0" "PUT run against nginx"
assert_eq "$(wc -l < "$T/access.log" | tr -d ' ')" 800 "access log lines"
assert_eq "$(grep -v '^PUT|/a|t-525|text/plain|9|hello-525$' "$T/access.log" |
    grep -cv '^PUT|/b?q=1|t-525|text/plain|9|hello-525$')" 0 \
    "every request is PUT, X-Trace, text/plain, 9 bytes of hello-525 to /a or /b?q=1"
na=$(grep -c '|/a|' "$T/access.log")
[ "$na" -ge 540 ] && [ "$na" -le 660 ] || fail "weights 3:1 over 800 requests: /a got $na (expected ~600)"

# 2. POST of a 300-byte body from a file, default Content-Type
i=0; : > "$T/body.txt"
while [ $i -lt 30 ]; do printf 'abcdefghi%d' $((i % 10)) >> "$T/body.txt"; i=$((i + 1)); done
: > "$T/access.log"
"$DRIVER" http --port "$PORT" --method POST --body-file "$T/body.txt" --path /up \
    --requests 50 --warmup 0 > "$T/r2.json" || fail "driver http POST --body-file exited $?"
assert_eq "$(sort -u "$T/access.log")" \
    "POST|/up|-|application/octet-stream|300|$(cat "$T/body.txt")" "POST body from a file"
assert_eq "$(json_get "$T/r2.json" 'this.config.body_file')" "$T/body.txt" "body_file recorded"

# 3. a path answering 503 fails the run and names the status
rc=0
"$DRIVER" http --port "$PORT" --paths '[{"path":"/ok"},{"path":"/fail"}]' --requests 40 \
    --warmup 0 > "$T/r3.json" 2> "$T/r3.err" || rc=$?
assert_eq "$rc" 3 "run with 503 answers exit"
assert_eq "$(json_get "$T/r3.json" '[this.status, this.errors.protocol > 0, this.first_error].join(" ")')" \
    "failed true http: HTTP status 503 (expected 2xx)" "503 named"

# 4. the keys through a compare grid, to the reference server (PUT echo checked)
cat > "$T/grid.json" <<'G'
{"name": "http-requests", "configs": [{"protocol": "http", "serve": true, "method": "PUT",
  "headers": {"X-Trace": "g"}, "body": "grid-body",
  "paths": [{"path": "/x", "weight": 2}, {"path": "/y", "weight": 1}]}]}
G
cat > "$T/spec.json" <<EOF
{"versions": [{"name": "a", "driver": "$DRIVER"}, {"name": "b", "driver": "$DRIVER"}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.05, "duration": 0.2}
EOF
"$COMPARE" run --spec "$T/spec.json" --out "$T/out" > /dev/null 2> "$T/compare.err" ||
    fail "compare run of the http grid exited $?: $(tail -n 5 "$T/compare.err")"
node -e '
const fs = require("fs");
const runs = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
for (const r of runs) { const c = r.result.config, e = r.result.errors;
  if (r.status !== "ok" || e.protocol + e.verify) throw new Error("run " + r.status);
  if (c.method !== "PUT" || c.body !== "grid-body" || c.headers["X-Trace"] !== "g" ||
      c.paths.length !== 2) throw new Error("config " + JSON.stringify(c));
  if (!/PUT · 2 paths/.test(r.label)) throw new Error("label " + r.label); }
' "$T/out/runs.jsonl" || fail "grid keys did not reach the driver"

# 5. bad grid values: refused before any run, naming the key and the value
sed 's/"weight": 2/"weight": 0/' "$T/grid.json" > "$T/bad1.json"
sed 's/"X-Trace": "g"/"Content-Length": "3"/' "$T/grid.json" > "$T/bad2.json"
for b in bad1 bad2; do
    sed "s#$T/grid.json#$T/$b.json#" "$T/spec.json" > "$T/$b.spec.json"
    rc=0
    "$COMPARE" run --spec "$T/$b.spec.json" --out "$T/$b.out" > /dev/null 2> "$T/$b.err" || rc=$?
    assert_eq "$rc" 2 "$b grid exit"
done
grep -q 'paths.*"weight":0.*positive' "$T/bad1.err" || fail "bad weight: $(cat "$T/bad1.err")"
grep -q 'headers.*Content-Length' "$T/bad2.err" || fail "framing header: $(cat "$T/bad2.err")"
[ ! -e "$T/bad1.out/runs.jsonl" ] || fail "a run happened before the bad grid was refused"
echo "525-http-requests: ok"
