#!/bin/sh
# pairbench-test: untimed
# HTTP and WebSocket over TLS with real peers: curl against `driver serve http --transport
# tls` (certificate verified, exact body bytes, POST echo); driver ws against the npm `ws`
# server over wss (exact count); the npm `ws` client against `driver serve ws` over wss.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/tls-lib.sh"
need curl
need node
tls_pki
I=$TOP/tests/interop
ERRS0='{"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0}'
SRV_TLS="--transport tls --cert $PKI/server.pem --key $PKI/server.key"

# curl -> driver serve http over TLS
PORT=$(free_port)
start_bg shttp "$DRIVER" serve http --port "$PORT" --payload 1000 $SRV_TLS
wait_port "$PORT"
node -e 'const a="0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const n=+process.argv[1]; const b=Buffer.alloc(n);
  for (let k=0;k<n;k++) b[k]=a.charCodeAt((k+Math.floor(k/62))%62);
  process.stdout.write(b)' 1000 > "$T/expect.bin"
curl -sS --cacert "$PKI/ca.pem" -o "$T/b.bin" "https://127.0.0.1:$PORT/" || fail "curl https GET failed"
cmp -s "$T/b.bin" "$T/expect.bin" || fail "curl https: body bytes differ"
head -c 3000 /dev/urandom > "$T/post.bin"
curl -sS --cacert "$PKI/ca.pem" --data-binary "@$T/post.bin" -o "$T/echo.bin" \
    "https://127.0.0.1:$PORT/" || fail "curl https POST failed"
cmp -s "$T/post.bin" "$T/echo.bin" || fail "curl https POST: echo differs"
drv https http --port "$PORT" --payload 1000 --transport tls --cacert "$PKI/ca.pem" \
    --requests 200 --warmup 0 --connections 2 --window 4 --pipeline 2
assert_eq "$RC" 0 "driver http over TLS exit ($(cat "$T/https.err"))"
assert_eq "$(json_get "$T/https.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
    "200 $ERRS0" "driver http over TLS"

# driver ws -> npm ws over wss
PORT=$(free_port)
start_bg wss node "$I/ws_echo_server.js" "$PORT" --tls "$PKI/server.pem" "$PKI/server.key"
wait_port "$PORT"
drv wsc ws --port "$PORT" --payload 4096 --transport tls --cacert "$PKI/ca.pem" \
    --requests 300 --warmup 0 --connections 2 --window 4
assert_eq "$RC" 0 "driver ws over wss exit ($(cat "$T/wsc.err"))"
assert_eq "$(json_get "$T/wsc.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
    "300 $ERRS0" "driver ws against npm ws over wss"

# npm ws client -> driver serve ws over wss
PORT=$(free_port)
start_bg sws "$DRIVER" serve ws --port "$PORT" --payload 131072 $SRV_TLS
wait_port "$PORT"
node "$I/ws_client.js" "$PORT" 100000 0 "$PKI/ca.pem" > "$T/client.out" 2>&1 ||
    fail "npm ws client over wss against driver serve ws: $(cat "$T/client.out")"
echo "440-http-ws-tls: ok"
