#!/bin/sh
# pairbench-test: untimed
# WebSocket against real peers. driver ws -> the npm `ws` echo server: exact message counts,
# 7/16/64-bit lengths, fragmented echoes and server pings answered with pongs. The npm `ws`
# client -> `driver serve ws`: binary/text echo, fragmented messages, ping/pong, close,
# refusal of an oversized message. Counting: `driver serve ws` counts what the driver sent
# (plus one reply per handshake: srvproto.h counts handshakes as replies).
. "$(dirname "$0")/../lib.sh"
need node
I=$TOP/tests/interop
ERRS0='{"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0}'

stop() { # pid: SIGTERM and wait (bounded)
    kill -TERM "$1"
    i=0
    while kill -0 "$1" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
}

# driver ws -> npm ws echo server, exact counts over 7-, 16- and 64-bit lengths
PORT=$(free_port)
start_bg echo node "$I/ws_echo_server.js" "$PORT"
EPID=$LAST_PID
wait_port "$PORT"
total=0
for pl in 64 4096 70000; do
    "$DRIVER" ws --port "$PORT" --payload "$pl" --requests 300 --warmup 0 --connections 2 \
        --window 4 --pipeline 2 > "$T/e$pl.json" || fail "driver ws (payload $pl) exited $?"
    assert_eq "$(json_get "$T/e$pl.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
        "300 $ERRS0" "driver ws against npm ws, payload $pl"
    total=$((total + 300))
done
stop "$EPID"
assert_eq "$(json_get "$T/echo.out" 'this.messages')" "$total" "npm ws server message count"

# fragmented echoes and pings every 5 ms: every echo verified, and every ping answered that
# came before the connection's last echo (the driver reads all of those before it closes)
PORT=$(free_port)
start_bg frag node "$I/ws_echo_server.js" "$PORT" --fragment --ping-ms 5
FPID=$LAST_PID
wait_port "$PORT"
"$DRIVER" ws --port "$PORT" --payload 4096 --connections 2 --window 4 --warmup 0 \
    --duration 0.5 > "$T/f.json" || fail "driver ws (fragmented, pings) exited $?"
assert_eq "$(json_get "$T/f.json" '[this.ops > 0, JSON.stringify(this.errors)].join(" ")')" \
    "true $ERRS0" "driver ws against fragmenting, pinging npm ws"
stop "$FPID"
assert_eq "$(json_get "$T/frag.out" 'this.pongs > 0 && this.pongs >= this.owed && this.pongs <= this.pings')" \
    true \
    "pongs answered ($(cat "$T/frag.out"))"

# npm ws client -> driver serve ws (limit 131072 bytes: 100000 passes, 200000 is refused)
PORT=$(free_port)
start_bg serve "$DRIVER" serve ws --port "$PORT" --payload 131072 --workers 2
SPID=$LAST_PID
wait_port "$PORT"
node "$I/ws_client.js" "$PORT" 100000 200000 > "$T/client.out" 2>&1 ||
    fail "npm ws client against driver serve ws: $(cat "$T/client.out")"
stop "$SPID"

# counting: the server counts messages (handshakes are answered, not counted)
PORT=$(free_port)
start_bg count "$DRIVER" serve ws --port "$PORT" --workers 2
CPID=$LAST_PID
wait_port "$PORT"
"$DRIVER" ws --port "$PORT" --requests 777 --warmup 0 --connections 3 --workers 2 \
    --window 8 --pipeline 3 > "$T/c.json" || fail "counted ws run exited $?"
assert_eq "$(json_get "$T/c.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
    "777 $ERRS0" "counted ws run"
stop "$CPID"
assert_eq "$(json_get "$T/count.out" 'this.requests')" 777 \
    "server count: exactly the driver's 777 messages ($(cat "$T/count.out"))"

# --delay-us holds every reply back: the median round trip is at least the delay
PORT=$(free_port)
start_bg delay "$DRIVER" serve ws --port "$PORT" --delay-us 3000
wait_port "$PORT"
"$DRIVER" ws --port "$PORT" --warmup 0 --duration 0.3 > "$T/delay.json" ||
    fail "driver ws against a delaying server exited $?"
assert_eq "$(json_get "$T/delay.json" '[this.ops > 0, this.latency_us.p50 >= 2900, this.errors.verify + this.errors.protocol].join(" ")')" \
    "true true 0" "ws --delay-us 3000 ($(json_get "$T/delay.json" 'this.latency_us.p50') us p50)"

# --serve: the reference WebSocket server in-process
"$DRIVER" ws --serve --serve-workers 2 --workers 2 --connections 4 --window 16 --warmup 0.1 \
    --duration 0.3 > "$T/s.json" || fail "--serve ws run exited $?"
assert_eq "$(json_get "$T/s.json" '[this.ops > 0, JSON.stringify(this.errors)].join(" ")')" \
    "true $ERRS0" "--serve ws run"
echo "420-ws-peers: ok"
