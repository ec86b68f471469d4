#!/bin/sh
# pairbench-test: untimed
# Connections a server closes on purpose are reopened (docs/driver.md, "Connections the
# server closes"), and the run stays ok:
# - stock nginx (no keepalive_requests in its configuration: the default, 1000) closes each
#   connection after 1000 responses with "Connection: close" (HTTP/2: GOAWAY); at 1 and 16
#   connections, plain, TLS and HTTP/2 over TLS, and pipelined (window 8, pipeline 4: the
#   requests in flight after the last response are sent again), by duration and by an exact
#   --requests count (16 connections: about 4000 requests each, so each is closed about 4
#   times): the driver's count equals nginx's access log, and connections.reopened is the sum
#   over the connections of their requests / 1000, so it lies within one per connection of
#   the access log's requests / 1000;
# - redis-server with `timeout 1`, driven at --rate 0.25 on 2 connections (each one idle 4 s
#   or more between its requests): every command answered once, every connection reopened;
# - a WebSocket echo server that sends Close 1000 after 50 messages per connection.
# A close in the middle of a response still fails the run: 850-misbehaving-servers.
# Cost: about 20 s (nginx: 64000 + 6000 requests and 3.5 s of runs at full rate, redis 9 s,
# ws well under a second).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/tls-lib.sh"
need nginx
need node
need redis-server
need redis-cli
tls_pki

# nginx as Debian ships it, apart from the ports and files: no keepalive_requests line
mkdir -p "$T/ngx/tmp" "$T/www"
head -c 4096 /dev/urandom > "$T/www/file.bin"
P1=$(free_port)
P2=$(free_port)
user=""
[ "$(id -u)" = 0 ] && user="user root;"
cat > "$T/ngx/nginx.conf" <<EOF
daemon off;
worker_processes 1;
$user
pid $T/ngx/nginx.pid;
error_log $T/ngx/error.log warn;
events { worker_connections 512; }
http {
    access_log $T/ngx/access.log;
    client_body_temp_path $T/ngx/tmp/body;
    proxy_temp_path $T/ngx/tmp/proxy;
    fastcgi_temp_path $T/ngx/tmp/fastcgi;
    uwsgi_temp_path $T/ngx/tmp/uwsgi;
    scgi_temp_path $T/ngx/tmp/scgi;
    server { listen 127.0.0.1:$P1; root $T/www; }
    server {
        listen 127.0.0.1:$P2 ssl http2;
        ssl_certificate $PKI/server.pem;
        ssl_certificate_key $PKI/server.key;
        root $T/www;
    }
}
EOF
grep -q keepalive_requests "$T/ngx/nginx.conf" && fail "the configuration must keep nginx's default"
start_bg nginx nginx -p "$T/ngx" -c "$T/ngx/nginx.conf" -e "$T/ngx/error.log"
wait_port "$P1"
wait_port "$P2"

ERRS0='{"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0}'

# nginx_run NAME CONNECTIONS FLAGS...: a run at full rate against nginx, checked against its
# access log
nginx_run() {
    name=$1; conns=$2; shift 2
    : > "$T/ngx/access.log"
    "$DRIVER" http --path /file.bin --warmup 0 --connections "$conns" "$@" \
        > "$T/$name.json" 2> "$T/$name.err" || fail "$name: driver exited $?: $(cat "$T/$name.err")"
    # nginx writes its log line once the response is sent: give the last ones a moment
    sleep 0.3
    logged=$(wc -l < "$T/ngx/access.log" | tr -d ' ')
    assert_eq "$(json_get "$T/$name.json" '[this.status, JSON.stringify(this.errors), this.connections.held].join(" ")')" \
        "ok $ERRS0 $conns" "$name: status, errors, held"
    assert_eq "$(json_get "$T/$name.json" 'this.ops')" "$logged" "$name: driver ops vs nginx access log"
    reopened=$(json_get "$T/$name.json" 'this.connections.reopened')
    # each connection is reopened floor(its requests / 1000) times
    [ "$reopened" -le $((logged / 1000)) ] && [ "$reopened" -ge $((logged / 1000 - conns + 1)) ] ||
        fail "$name: reopened $reopened, expected within $conns below $logged / 1000"
    [ "$reopened" -ge 1 ] || fail "$name: no connection was reopened ($logged requests)"
    echo "$name: $logged requests, $reopened reopenings (max $(json_get "$T/$name.json" 'this.connections.reopened_max') on one connection)"
}

nginx_run one 1 --port "$P1" --duration 1
nginx_run sixteen 16 --port "$P1" --workers 2 --requests 64000
nginx_run pipelined 4 --port "$P1" --window 8 --pipeline 4 --duration 1
nginx_run tls 2 --port "$P2" --transport tls --cacert "$PKI/ca.pem" --duration 1.5
# HTTP/2: nginx sends GOAWAY after keepalive_requests streams; the driver reopens
nginx_run h2 2 --port "$P2" --transport tls --cacert "$PKI/ca.pem" --http-version 2 --requests 6000
grep -q '"GET /file.bin HTTP/2.0" 200 4096' "$T/ngx/access.log" || fail "access log: no h2 200 of 4096 bytes"

# redis-server closes connections idle for more than 1 s (whole seconds: 1-2 s of idleness).
# One request every 4 s leaves every connection idle past that between its requests, however
# the driver spreads them (at --rate 1 a loaded CI run once saw a single reopening)
start_redis redis redis-server --timeout 1
redis-cli -p "$REDIS_PORT" CONFIG RESETSTAT > /dev/null
"$DRIVER" redis --port "$REDIS_PORT" --rate 0.25 --connections 2 --warmup 0 --duration 9 \
    > "$T/redis.json" 2> "$T/redis.err" || fail "redis: driver exited $?: $(cat "$T/redis.err")"
calls=$(redis_calls "$REDIS_PORT" echo)
assert_eq "$(json_get "$T/redis.json" '[this.status, JSON.stringify(this.errors), this.ops].join(" ")')" \
    "ok $ERRS0 $calls" "redis timeout 1: status, errors, ops = the server's ECHO calls"
assert_eq "$(json_get "$T/redis.json" 'this.connections.reopened >= 2 && this.connections.reopened_max >= 1')" \
    true "redis timeout 1: connections reopened ($(json_get "$T/redis.json" 'this.connections'))"

# WebSocket: Close 1000 after 50 echoes per connection
WSP=$(free_port)
start_bg ws node "$TOP/tests/interop/ws_echo_server.js" "$WSP" --close-after 50
WSPID=$LAST_PID
wait_port "$WSP"
"$DRIVER" ws --port "$WSP" --requests 1000 --warmup 0 --connections 4 --window 4 --pipeline 2 \
    > "$T/ws.json" 2> "$T/ws.err" || fail "ws: driver exited $?: $(cat "$T/ws.err")"
kill -TERM "$WSPID"
i=0
while [ ! -s "$T/ws.out" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
assert_eq "$(json_get "$T/ws.json" '[this.status, JSON.stringify(this.errors), this.ops].join(" ")')" \
    "ok $ERRS0 1000" "ws close 1000: status, errors, ops"
assert_eq "$(json_get "$T/ws.out" 'this.echoed')" 1000 "ws close 1000: messages echoed by the server"
assert_eq "$(json_get "$T/ws.json" 'this.connections.reopened >= 1000 / 50 - 4')" true \
    "ws close 1000: reopened ($(json_get "$T/ws.json" 'this.connections'))"
echo "405-server-closes: ok"
