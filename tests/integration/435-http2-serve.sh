#!/bin/sh
# pairbench-test: untimed
# HTTP/2 between the driver and its reference server, and against peers that break the
# protocol. `driver serve http` answers h2c (prior knowledge) and HTTP/1.1 on one port and h2
# over TLS (ALPN): its request count equals the driver's --requests N, GET (4 KiB and 1 MiB
# bodies, every byte checked) and POST (64 KiB echoed), h2load (nghttp2's client) gets every
# request answered, and a --rate run keeps its schedule's count. A TLS server that selects no
# ALPN protocol fails the handshake. tests/peers/bad_h2_server.js answers 3 requests, then
# cuts a DATA frame short, ends a body before its content-length, answers 500, resets the
# stream, sends GOAWAY PROTOCOL_ERROR or a malformed SETTINGS frame: each run exits 3 naming
# its cause. About 8 s.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/tls-lib.sh"
need node
need h2load
tls_pki
ERRS0='{"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0}'

# serve_count NAME: stops the server started as NAME and prints its request count
serve_count() {
    kill -TERM "$(cat "$T/$1.pid")"
    i=0
    while kill -0 "$(cat "$T/$1.pid")" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    json_get "$T/$1.out" 'this.requests'
}
serve() { # NAME ARGS...: driver serve http on a free port, its pid in $T/NAME.pid
    name=$1; shift
    PORT=$(free_port)
    start_bg "$name" "$DRIVER" serve http --port "$PORT" "$@"
    echo "$LAST_PID" > "$T/$name.pid"
    wait_port "$PORT"
}

# h2c, 4 KiB: GET pipelined, POST of 64 KiB echoed, HTTP/1.1 on the same port, then h2load
serve plain --payload 4096 --workers 2
drv get http --port "$PORT" --http-version 2 --payload 4096 --requests 1000 --warmup 0 \
    --connections 3 --workers 2 --window 8 --pipeline 2
assert_eq "$RC" 0 "h2c GET exit ($(cat "$T/get.err"))"
assert_eq "$(json_get "$T/get.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
    "1000 $ERRS0" "h2c GET"
drv post http --port "$PORT" --http-version 2 --method POST --payload 65536 --requests 40 \
    --warmup 0 --window 4
assert_eq "$RC" 0 "h2c POST exit ($(cat "$T/post.err"))"
assert_eq "$(json_get "$T/post.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
    "40 $ERRS0" "h2c POST 64 KiB"
drv h1 http --port "$PORT" --payload 4096 --requests 60 --warmup 0
assert_eq "$(json_get "$T/h1.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
    "60 $ERRS0" "HTTP/1.1 on the h2c port"
h2load -n 500 -c 2 -m 8 "http://127.0.0.1:$PORT/" > "$T/h2load.txt" 2>&1 ||
    fail "h2load exited $?: $(cat "$T/h2load.txt")"
grep -q '^requests: 500 total, 500 started, 500 done, 500 succeeded, 0 failed' "$T/h2load.txt" ||
    fail "h2load: $(grep '^requests:' "$T/h2load.txt")"
grep -q '^status codes: 500 2xx' "$T/h2load.txt" || fail "h2load: $(grep '^status codes' "$T/h2load.txt")"
assert_eq "$(serve_count plain)" $((1000 + 40 + 60 + 500)) "server request count (h2c, HTTP/1.1, h2load)"

# 1 MiB bodies: the windows never stall a body
serve big --payload 1048576
drv big http --port "$PORT" --http-version 2 --payload 1048576 --requests 24 --warmup 0 \
    --connections 2 --window 4
assert_eq "$(json_get "$T/big.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
    "24 $ERRS0" "h2c GET 1 MiB"
assert_eq "$(serve_count big)" 24 "server request count (1 MiB)"

# h2 over TLS (ALPN) and a fixed rate
serve tls --payload 1000 --transport tls --cert "$PKI/server.pem" --key "$PKI/server.key"
drv tls http --port "$PORT" --http-version 2 --payload 1000 --transport tls \
    --cacert "$PKI/ca.pem" --requests 300 --warmup 0 --connections 2 --window 4
assert_eq "$RC" 0 "h2 over TLS exit ($(cat "$T/tls.err"))"
assert_eq "$(json_get "$T/tls.json" '[this.ops, JSON.stringify(this.errors), this.transport].join(" ")')" \
    "300 $ERRS0 tls" "h2 over TLS against driver serve"
drv rate http --port "$PORT" --http-version 2 --payload 1000 --transport tls \
    --cacert "$PKI/ca.pem" --rate 400 --warmup 0 --duration 0.5 --connections 2
assert_eq "$RC" 0 "h2 --rate exit ($(cat "$T/rate.err"))"
assert_eq "$(json_get "$T/rate.json" '[JSON.stringify(this.errors), this.rate.sent === this.ops].join(" ")')" \
    "$ERRS0 true" "h2 --rate: every request sent answered"
sent=$(json_get "$T/rate.json" 'this.rate.sent')
assert_eq "$(serve_count tls)" $((300 + sent)) "server request count (TLS, rate)"

# a TLS server that selects no ALPN protocol (the TCP echo server)
TP=$(free_port)
start_bg tcps "$DRIVER" serve tcp --port "$TP" --transport tls --cert "$PKI/server.pem" \
    --key "$PKI/server.key"
wait_port "$TP"
drv noalpn http --port "$TP" --http-version 2 --transport tls --cacert "$PKI/ca.pem" \
    --requests 5 --warmup 0
assert_eq "$RC" 3 "h2 against a server without ALPN: exit"
assert_err noalpn "did not negotiate h2 (ALPN none)"

# peers that break the protocol after 3 good answers
for case in "truncate|closed by the server in the middle of a reply" \
    "short|closed by PROTOCOL_ERROR before its response completed (100 body bytes in)" \
    "status|HTTP status 500 (expected 2xx)" \
    "rst|closed by INTERNAL_ERROR before its response completed" \
    "goaway|GOAWAY from the server: PROTOCOL_ERROR: bad client" \
    "garbage|a connection error (FRAME_SIZE_ERROR)"; do
    mode=${case%%|*}
    BP=$(free_port)
    start_bg "bad-$mode" node "$TOP/tests/peers/bad_h2_server.js" "$BP" "$mode" 3
    wait_port "$BP"
    drv "bad-$mode" http --port "$BP" --http-version 2 --requests 20 --warmup 0 --timeout 2
    assert_eq "$RC" 3 "bad peer '$mode': exit"
    assert_err "bad-$mode" "${case#*|}"
    assert_eq "$(json_get "$T/bad-$mode.json" 'this.ops')" 3 "bad peer '$mode': requests answered well"
done
echo "435-http2-serve: ok"
