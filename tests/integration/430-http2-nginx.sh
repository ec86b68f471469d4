#!/bin/sh
# pairbench-test: untimed
# driver http --http-version 2 (nghttp2 framing over the engine's TLS, ALPN h2) against a real
# nginx with http2 over TLS: --requests N reaches nginx exactly N times, all HTTP/2.0 200 of
# 4096 bytes, over exactly --connections connections, pipeline 2 (two streams per batch)
# included; a duration run with two workers and a run stopped across its window measure with
# no error. nginx with http2_max_concurrent_streams 1 refuses every stream over its limit
# (RST_STREAM REFUSED_STREAM, a protocol error here), so a window-16 run with no error proves
# the limit was kept. An HTTP/1.1-only TLS server fails the handshake (no h2 in ALPN), a
# refused port exits 3, and the driver does not link libcurl. About 4 s.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/tls-lib.sh"
need nginx
need node
tls_pki

P3=$(free_port)
mkdir -p "$T/www"
head -c 4096 /dev/urandom > "$T/www/file.bin"
start_nginx nginx "
    log_format h2 '\$server_protocol \$status \$body_bytes_sent \$connection';
    access_log $T/access.log h2;
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
    }
    server {
        listen 127.0.0.1:$P3 ssl http2;
        http2_max_concurrent_streams 1;
        access_log $T/one.log h2;
        root $T/www;
    }"
wait_port "$P3"
PORT=$NGINX_PORT
PORT11=$NGINX_PORT2
ERRS0='{"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0}'
H2="--http-version 2 --transport tls --cacert $PKI/ca.pem --path /file.bin"

# exact count, all HTTP/2.0, exactly 3 connections; nginx logs a request once it is sent
: > "$T/access.log"
drv exact http --port "$PORT" $H2 --requests 600 --warmup 0 --connections 3 --workers 1 \
    --window 8 --pipeline 2
assert_eq "$RC" 0 "h2 exact run exit ($(cat "$T/exact.err"))"
assert_eq "$(json_get "$T/exact.json" '[this.ops, JSON.stringify(this.errors), this.latency_us.samples, this.connections.held].join(" ")')" \
    "600 $ERRS0 300 3" "h2 exact run"
sleep 0.3
assert_eq "$(wc -l < "$T/access.log" | tr -d ' ')" 600 "nginx access log lines"
assert_eq "$(grep -c '^HTTP/2.0 200 4096 ' "$T/access.log")" 600 "HTTP/2.0 200 4096 lines"
assert_eq "$(cut -d' ' -f4 "$T/access.log" | sort -u | wc -l | tr -d ' ')" 3 "h2 connections used"

# a duration run with two workers
drv dur http --port "$PORT" $H2 --connections 2 --workers 2 --window 16 --warmup 0.1 \
    --duration 0.3
assert_eq "$RC" 0 "h2 duration run exit ($(cat "$T/dur.err"))"
assert_eq "$(json_get "$T/dur.json" '[this.ops > 0, JSON.stringify(this.errors)].join(" ")')" \
    "true $ERRS0" "h2 duration run"

# stopped (descheduled) from before t0 to after the end of its window: it starts one measured
# batch late instead of ending with zero ops (exit 3)
run_stopped "$T/stop.json" "$T/stop.err" "$DRIVER" http --port "$PORT" $H2 --warmup 0.5 --duration 0.2
assert_eq "$RC" 0 "h2 run stopped across its window: exit ($(cat "$T/stop.err"))"
assert_eq "$(json_get "$T/stop.json" '[this.ops >= 1, JSON.stringify(this.errors)].join(" ")')" \
    "true $ERRS0" "h2 run stopped across its window"

# one concurrent stream allowed: 16 requests in flight per connection wait inside the session
: > "$T/one.log"
drv one http --port "$P3" $H2 --requests 400 --warmup 0 --connections 2 --window 16
assert_eq "$RC" 0 "h2 against 1 concurrent stream: exit ($(cat "$T/one.err"))"
assert_eq "$(json_get "$T/one.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
    "400 $ERRS0" "h2 against 1 concurrent stream"
sleep 0.3
assert_eq "$(grep -c '^HTTP/2.0 200 4096 ' "$T/one.log")" 400 "nginx (1 stream) access log lines"

# HTTP/1.1-only TLS server: nginx refuses the ALPN offer of h2 alone -> exit 3
drv h11 http --port "$PORT11" $H2 --requests 5 --warmup 0
assert_eq "$RC" 3 "h2 against an HTTP/1.1-only server exit"
assert_err h11 "no application protocol"

dead=$(free_port)
drv dead http --port "$dead" $H2 --requests 5 --warmup 0
assert_eq "$RC" 3 "h2 connection refused exit"
assert_err dead "connect '127.0.0.1:$dead'"
if ldd "$DRIVER" | grep -q libcurl; then fail "the driver links libcurl"; fi
echo "430-http2-nginx: ok"
