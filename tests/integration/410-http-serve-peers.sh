#!/bin/sh
# pairbench-test: untimed
# The reference HTTP server (`driver serve http`) under real clients: curl gets the exact body
# bytes, reuses the keep-alive connection and gets POST bodies echoed; wrk sees no errors and
# no non-2xx; garbage closes only that connection. Counting: the server's request count equals
# the driver's --requests N, GET and POST, pipelined. A Node.js peer answering with chunked
# bodies is decoded exactly. --serve hosts the reference server in-process.
. "$(dirname "$0")/../lib.sh"
need curl
need wrk
need node
need socat

PORT=$(free_port)
start_bg serve "$DRIVER" serve http --port "$PORT" --payload 4096 --workers 2
SPID=$LAST_PID
wait_port "$PORT"
URL="http://127.0.0.1:$PORT"

# the expected body: http_pattern() of http_parse.c, byte k = abc[(k + k/62) % 62]
node -e 'const a="0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const n=+process.argv[1]; const b=Buffer.alloc(n);
  for (let k=0;k<n;k++) b[k]=a.charCodeAt((k+Math.floor(k/62))%62);
  process.stdout.write(b)' 4096 > "$T/expect.bin"

# curl: two GETs on one connection (num_connects 1 then 0), bytes exact
curl -sS -o "$T/b1" -o "$T/b2" -w '%{http_code} %{num_connects} %{size_download}\n' \
    "$URL/" "$URL/x?y" > "$T/curl.txt" || fail "curl GET failed"
assert_eq "$(tr '\n' ' ' < "$T/curl.txt")" "200 1 4096 200 0 4096 " "curl status/reuse/size"
cmp -s "$T/b1" "$T/expect.bin" || fail "curl: body bytes differ from the pattern"
cmp -s "$T/b2" "$T/expect.bin" || fail "curl: second body differs"
curl -sSI "$URL/" | grep -qi '^Server: pairbench' || fail "curl HEAD: no Server: pairbench"
# POST echo
head -c 10000 /dev/urandom > "$T/post.bin"
curl -sS --data-binary "@$T/post.bin" -H 'Content-Type: application/octet-stream' \
    -o "$T/echo.bin" "$URL/echo" || fail "curl POST failed"
cmp -s "$T/post.bin" "$T/echo.bin" || fail "curl POST: echo differs"
# garbage closes that connection only
printf 'garbage\r\n\r\n' | socat -t 2 - "TCP:127.0.0.1:$PORT" > "$T/garbage.out" || true
[ ! -s "$T/garbage.out" ] || fail "garbage got an answer: $(head -c 100 "$T/garbage.out")"
curl -sS -o /dev/null -w '%{http_code}' "$URL/" | grep -q 200 || fail "server gone after garbage"

# wrk: 16 connections, 1 s
wrk -t 2 -c 16 -d 1s "$URL/" > "$T/wrk.txt" 2>&1 || fail "wrk failed: $(cat "$T/wrk.txt")"
grep -q 'requests in' "$T/wrk.txt" || fail "wrk: no summary: $(cat "$T/wrk.txt")"
if grep -Eq 'Non-2xx|Socket errors' "$T/wrk.txt"; then fail "wrk errors: $(cat "$T/wrk.txt")"; fi
kill -TERM "$SPID"
i=0
while kill -0 "$SPID" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done

# counting: a fresh server sees exactly what the driver says it sent
PORT=$(free_port)
start_bg count "$DRIVER" serve http --port "$PORT" --payload 1000 --workers 2
CPID=$LAST_PID
wait_port "$PORT"
ERRS0='{"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0}'
"$DRIVER" http --port "$PORT" --payload 1000 --requests 1234 --warmup 0 --connections 4 \
    --workers 2 --window 8 --pipeline 3 > "$T/c1.json" || fail "counted GET run exited $?"
assert_eq "$(json_get "$T/c1.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
    "1234 $ERRS0" "counted GET run"
"$DRIVER" http --port "$PORT" --payload 1000 --method POST --requests 321 --warmup 0 \
    --connections 2 --window 4 > "$T/c2.json" || fail "counted POST run exited $?"
assert_eq "$(json_get "$T/c2.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
    "321 $ERRS0" "counted POST run"
kill -TERM "$CPID"
i=0
while kill -0 "$CPID" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
assert_eq "$(json_get "$T/count.out" 'this.requests')" 1555 "server request count"

# a server with a different body size: every response is a verify error, never ok
PORT=$(free_port)
start_bg other "$DRIVER" serve http --port "$PORT" --payload 100
wait_port "$PORT"
set +e
"$DRIVER" http --port "$PORT" --payload 64 --requests 10 --warmup 0 > /dev/null 2> "$T/v.err"
rc=$?
set -e
assert_eq "$rc" 3 "wrong body size run exit"
grep -q "verify 10" "$T/v.err" || fail "expected 'verify 10' in: $(cat "$T/v.err")"

# a real chunked peer (Node.js http, no Content-Length): every body decoded, exact count
PORT=$(free_port)
start_bg chunked node "$TOP/tests/interop/http_chunked_server.js" "$PORT" 3000
KPID=$LAST_PID
wait_port "$PORT"
"$DRIVER" http --port "$PORT" --requests 500 --warmup 0 --connections 2 --window 4 \
    --pipeline 2 > "$T/k.json" || fail "driver http against a chunked peer exited $?"
assert_eq "$(json_get "$T/k.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
    "500 $ERRS0" "driver http against a chunked peer"
kill -TERM "$KPID"
i=0
while kill -0 "$KPID" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
assert_eq "$(json_get "$T/chunked.out" 'this.requests')" 500 "chunked peer request count"

# --delay-us holds every reply back: the median round trip is at least the delay
PORT=$(free_port)
start_bg delay "$DRIVER" serve http --port "$PORT" --delay-us 3000
wait_port "$PORT"
"$DRIVER" http --port "$PORT" --warmup 0 --duration 0.3 > "$T/delay.json" ||
    fail "driver http against a delaying server exited $?"
assert_eq "$(json_get "$T/delay.json" '[this.ops > 0, this.latency_us.p50 >= 2900, this.errors.verify + this.errors.protocol].join(" ")')" \
    "true true 0" "http --delay-us 3000 ($(json_get "$T/delay.json" 'this.latency_us.p50') us p50)"

# --serve: the reference server in-process
"$DRIVER" http --serve --serve-workers 1 --payload 4096 --window 4 --warmup 0.1 \
    --duration 0.3 > "$T/s.json" || fail "--serve run exited $?"
assert_eq "$(json_get "$T/s.json" '[this.ops > 0, JSON.stringify(this.errors)].join(" ")')" \
    "true $ERRS0" "--serve http run"
echo "410-http-serve-peers: ok"
