#!/bin/sh
# pairbench-test: untimed
# driver http --http-version 2 (libcurl multi, ALPN h2) against a real nginx with http2 over
# TLS: --requests N reaches nginx exactly N times, all as HTTP/2.0, over at most
# --connections connections; window = concurrent streams. An HTTP/1.1-only TLS server is a
# protocol error (h2 not negotiated); cleartext h2 and --pipeline > 1 are refused (exit 2).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/tls-lib.sh"
need nginx
need node
tls_pki

mkdir -p "$T/www"
head -c 4096 /dev/urandom > "$T/www/file.bin"
start_nginx nginx "
    log_format h2 '\$server_protocol \$status \$body_bytes_sent \$connection';
    access_log $T/access.log h2;
    http2_max_requests 1000000;
    ssl_certificate $PKI/server.pem;
    ssl_certificate_key $PKI/server.key;
    server {
        listen 127.0.0.1:@PORT@ ssl http2;
        root $T/www;
    }
    server {
        listen 127.0.0.1:@PORT2@ ssl;
        root $T/www;
        access_log off;
    }"
PORT=$NGINX_PORT
PORT11=$NGINX_PORT2
ERRS0='{"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0}'
H2="--http-version 2 --transport tls --cacert $PKI/ca.pem --path /file.bin"

# exact count, all HTTP/2.0, at most 3 connections
: > "$T/access.log"
drv exact http --port "$PORT" $H2 --requests 600 --warmup 0 --connections 3 --workers 1 \
    --window 8
assert_eq "$RC" 0 "h2 exact run exit ($(cat "$T/exact.err"))"
assert_eq "$(json_get "$T/exact.json" '[this.ops, JSON.stringify(this.errors), this.latency_us.samples].join(" ")')" \
    "600 $ERRS0 600" "h2 exact run"
assert_eq "$(wc -l < "$T/access.log" | tr -d ' ')" 600 "nginx access log lines"
assert_eq "$(grep -c '^HTTP/2.0 200 4096 ' "$T/access.log")" 600 "HTTP/2.0 200 4096 lines"
conns=$(cut -d' ' -f4 "$T/access.log" | sort -u | wc -l | tr -d ' ')
[ "$conns" -ge 1 ] && [ "$conns" -le 3 ] || fail "h2 connections used: $conns, expected 1..3"

# a duration run with two workers
drv dur http --port "$PORT" $H2 --connections 2 --workers 2 --window 16 --warmup 0.1 \
    --duration 0.3
assert_eq "$RC" 0 "h2 duration run exit ($(cat "$T/dur.err"))"
assert_eq "$(json_get "$T/dur.json" '[this.ops > 0, JSON.stringify(this.errors)].join(" ")')" \
    "true $ERRS0" "h2 duration run"

# stopped (descheduled) from before t0 to after the end of its window: the worker's
# transfers all began in warm-up, so it starts one measured transfer late instead of
# ending with zero ops (exit 3)
run_stopped "$T/stop.json" "$T/stop.err" "$DRIVER" http --port "$PORT" $H2 --warmup 0.5 --duration 0.2
assert_eq "$RC" 0 "h2 run stopped across its window: exit ($(cat "$T/stop.err"))"
assert_eq "$(json_get "$T/stop.json" '[this.ops >= 1, JSON.stringify(this.errors)].join(" ")')" \
    "true $ERRS0" "h2 run stopped across its window"

# HTTP/1.1-only TLS server: h2 not negotiated, every reply a protocol error -> exit 3
drv h11 http --port "$PORT11" $H2 --requests 5 --warmup 0
assert_eq "$RC" 3 "h2 against an HTTP/1.1-only server exit"
assert_err h11 "did not negotiate h2"

# refused: cleartext h2, pipeline > 1; connection refused -> exit 3
drv clear http --port "$PORT" --http-version 2 --requests 5
assert_eq "$RC" 2 "cleartext h2 exit"
assert_err clear "cleartext HTTP/2 is not supported"
drv pipe http --port "$PORT" $H2 --pipeline 4 --requests 5
assert_eq "$RC" 2 "h2 --pipeline 4 exit"
dead=$(free_port)
drv dead http --port "$dead" $H2 --requests 5 --warmup 0
assert_eq "$RC" 3 "h2 connection refused exit"
assert_err dead "connect '127.0.0.1:$dead'"
# libcurl is loaded at run time, for HTTP/2 only: the driver is not linked against it, an
# HTTP/1.1 run never maps it, and a libcurl that lacks a needed function is named (exit 3)
ldd "$DRIVER" | grep -q libcurl && fail "the driver links libcurl"
"$DRIVER" http --port "$PORT11" --transport tls --cacert "$PKI/ca.pem" --path /file.bin \
    --requests 5 --warmup 0 > "$T/h1.json" 2> "$T/h1.err" || fail "HTTP/1.1 over TLS: $(cat "$T/h1.err")"
mkdir -p "$T/fakecurl"
echo 'int curl_global_init(long f) { return (int)f; }' > "$T/fakecurl/c.c"
cc -shared -fPIC -o "$T/fakecurl/libcurl.so.4" "$T/fakecurl/c.c" || fail "cannot build the fake libcurl"
set +e
LD_LIBRARY_PATH="$T/fakecurl" "$DRIVER" http --port "$PORT" $H2 --requests 5 --warmup 0 \
    > /dev/null 2> "$T/fake.err"
RC=$?
set -e
assert_eq "$RC" 3 "h2 with a libcurl lacking functions: exit"
assert_err fake "libcurl.so.4 has no curl_global_cleanup"
echo "430-http2-nginx: ok"
