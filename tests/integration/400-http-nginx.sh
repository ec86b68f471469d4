#!/bin/sh
# pairbench-test: untimed
# driver http against a real nginx serving a static 4 KiB file (our own configuration in $T,
# foreground): --requests N --warmup 0 shows up as exactly N lines in nginx's access log;
# pipelined window 16 works; a 404 path is counted as protocol errors (exit 3, nothing
# succeeded); connections closed by "Connection: close" (keepalive_requests) are reopened.
. "$(dirname "$0")/../lib.sh"
need nginx
need node

mkdir -p "$T/www"
head -c 4096 /dev/urandom > "$T/www/file.bin"
start_nginx nginx "
    access_log $T/access.log;
    server {
        listen 127.0.0.1:@PORT@;
        root $T/www;
    }
    server {
        listen 127.0.0.1:@PORT2@;
        root $T/www;
        access_log off;
        keepalive_requests 7;
    }"
PORT=$NGINX_PORT
PORT2=$NGINX_PORT2

ERRS0='{"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0}'
summary() { json_get "$1" '[this.ops, JSON.stringify(this.errors)].join(" ")'; }

# 1. exact count: N requests in, N lines in the access log
: > "$T/access.log"
"$DRIVER" http --port "$PORT" --path /file.bin --requests 777 --warmup 0 --connections 4 \
    --workers 2 > "$T/r1.json" || fail "driver http against nginx exited $?"
assert_eq "$(summary "$T/r1.json")" "777 $ERRS0" "exact run against nginx"
assert_eq "$(wc -l < "$T/access.log" | tr -d ' ')" 777 "nginx access log lines"
grep -q '"GET /file.bin HTTP/1.1" 200 4096' "$T/access.log" || fail "access log: no 200 of 4096 bytes"

# 2. pipelining on the wire: window 16, pipeline 4, exact count again
: > "$T/access.log"
"$DRIVER" http --port "$PORT" --path /file.bin --requests 2000 --warmup 0 --window 16 \
    --pipeline 4 --connections 8 --workers 2 > "$T/r2.json" || fail "pipelined run exited $?"
assert_eq "$(summary "$T/r2.json")" "2000 $ERRS0" "pipelined run against nginx"
assert_eq "$(wc -l < "$T/access.log" | tr -d ' ')" 2000 "nginx access log lines (pipelined)"

# 3. a duration run with window 16: no errors, measured ops
"$DRIVER" http --port "$PORT" --path /file.bin --window 16 --connections 4 --warmup 0.1 \
    --duration 0.4 > "$T/r3.json" || fail "duration run exited $?"
assert_eq "$(json_get "$T/r3.json" '[this.ops > 0, JSON.stringify(this.errors)].join(" ")')" \
    "true $ERRS0" "duration run against nginx"

# 4. 404 is a protocol error per reply, never a crash: nothing succeeds -> exit 3
set +e
"$DRIVER" http --port "$PORT" --path /missing --requests 20 --warmup 0 > "$T/r4.json" 2> "$T/r4.err"
rc=$?
set -e
assert_eq "$rc" 3 "404-only run exit"
grep -q "protocol 20" "$T/r4.err" || fail "404 run: expected 'protocol 20' in: $(cat "$T/r4.err")"

# 5. nginx closes every 7th response with "Connection: close": the driver reopens the
# connection and goes on, and the run stays ok with no error of any class.
"$DRIVER" http --port "$PORT2" --path /file.bin --connections 2 --warmup 0 --duration 0.3 \
    > "$T/r5.json" 2> "$T/r5.err" || fail "keepalive_requests run exited $? ($(tail -n 1 "$T/r5.err"))"
assert_eq "$(json_get "$T/r5.json" '[this.ops > 7, JSON.stringify(this.errors), this.connections.reopened > 0, this.status].join(" ")')" \
    "true $ERRS0 true ok" "run against Connection: close responses"
echo "400-http-nginx: ok"
