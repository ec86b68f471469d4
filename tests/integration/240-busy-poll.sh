#!/bin/sh
# pairbench-test: timed
# --busy-poll-us: the worker polls before it sleeps, in epoll_wait (several connections) and
# in the one-connection read. Against a real redis-server every reply is still verified and
# the server sees exactly N commands; the setting is in the result's configuration; and
# where replies come slower than the window, the window stays shut instead of spinning away
# a core (the adaptive rule in driver/engine/loop.c; tests/unit/test_loop.c checks that an open
# window closes); a reply that comes in pieces is waited for asleep, not polled. Bad values
# are refused with the flag named.
. "$(dirname "$0")/../lib.sh"
need redis-cli
need node
need python3

start_redis redis redis-server
rp=$REDIS_PORT

for shape in "--connections 4 --pipeline 1 --payload 1024" \
    "--connections 1 --pipeline 1 --payload 64" \
    "--connections 4 --workers 2 --pipeline 16 --payload 1024"; do
    redis-cli -p "$rp" CONFIG RESETSTAT > /dev/null
    # shellcheck disable=SC2086 # the shape is a list of flags
    "$DRIVER" redis --port "$rp" --requests 20000 --warmup 0 --busy-poll-us 50 $shape \
        > "$T/out.json" 2> "$T/err.txt" || { cat "$T/err.txt" >&2; fail "driver failed: $shape"; }
    assert_eq "$(redis_calls "$rp" echo)" 20000 "server calls with busy polling, $shape"
    assert_eq "$(json_get "$T/out.json" 'this.ops === 20000 && Object.values(this.errors).every(v => v === 0)')" \
        true "exact ops, no errors, $shape: $(json_get "$T/out.json" 'JSON.stringify(this.errors)')"
    assert_eq "$(json_get "$T/out.json" 'this.config.busy_poll_us')" 50 "busy_poll_us in the result"
done
"$DRIVER" redis --port "$rp" --requests 100 --warmup 0 > "$T/off.json"
assert_eq "$(json_get "$T/off.json" '"busy_poll_us" in this.config')" false \
    "busy polling is off (and not in the configuration) by default"

# replies held 2 ms, longer than the 1000 us window: the window stays shut, so the client's
# CPU stays a small share of its run; polling 1000 us of every ~2 ms wait would take about
# half a core per worker
port=$(free_port)
start_bg serve "$DRIVER" serve tcp --port "$port" --payload 64 --delay-us 2000
wait_port "$port"
"$DRIVER" tcp --port "$port" --payload 64 --connections 4 --workers 2 --warmup 0.2 \
    --duration 1 --busy-poll-us 1000 > "$T/slow.json" || fail "slow-server run exited $?"
assert_eq "$(json_get "$T/slow.json" 'this.ops > 0 && this.errors.io === 0')" true \
    "slow server: $(json_get "$T/slow.json" 'JSON.stringify([this.ops, this.errors])')"
pct=$(json_get "$T/slow.json" 'this.cpu.percent')
awk -v p="$pct" 'BEGIN {exit !(p < 40)}' ||
    fail "busy polling against a 2 ms server used $pct% CPU: the window opened"
echo "slow server: the client used $pct% CPU with a 1000 us window"

# a reply that comes in pieces is waited for asleep: polling is for the wait until a reply
# starts. A server answering each 64-byte message in 16 pieces 300 us apart, with a 1000 us
# window: polling the gaps would keep the client on a core the whole run (it did, 100%, before
# the rule); asleep it uses a small share (4-10% here), on both the epoll path and the
# one-connection read. The server is Python: its sleeps can be 300 us, shorter than the
# window; node's timers are whole milliseconds, and gaps longer than the window close it
# whatever the rule.
port=$(free_port)
cat > "$T/trickle.py" <<'PY'
import socket, sys, threading, time
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", int(sys.argv[1])))
srv.listen(16)
def serve(c):
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    buf = b""
    while True:
        d = c.recv(4096)
        if not d:
            return
        buf += d
        while len(buf) >= 64:
            m, buf = buf[:64], buf[64:]
            for i in range(0, 64, 4):
                if i:
                    time.sleep(0.0003)
                c.sendall(m[i:i + 4])
while True:
    c, _ = srv.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
PY
start_bg trickle python3 "$T/trickle.py" "$port"
wait_port "$port"
for c in 1 2; do
    "$DRIVER" tcp --port "$port" --payload 64 --connections "$c" --warmup 0.1 --duration 0.5 \
        --busy-poll-us 1000 > "$T/trickle.json" || fail "trickling server, $c connections: exit $?"
    assert_eq "$(json_get "$T/trickle.json" 'this.ops > 0 && Object.values(this.errors).every(v => v === 0)')" \
        true "trickling server, $c connections: $(json_get "$T/trickle.json" 'JSON.stringify([this.ops, this.errors])')"
    pct=$(json_get "$T/trickle.json" 'this.cpu.percent')
    awk -v p="$pct" 'BEGIN {exit !(p < 40)}' ||
        fail "$c connections: replies in pieces took $pct% CPU with a 1000 us window: the gaps were polled"
    echo "trickling server, $c connections: the client used $pct% CPU with a 1000 us window"
done

# a grid's busy_poll_us reaches every run's driver (and its recorded configuration)
cat > "$T/grid.json" <<JSON
{"name": "tcp-poll", "configs": [{"protocol": "tcp", "connections": 2, "payload": 64,
  "window": 4, "busy_poll_us": 30}]}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
   {"name": "b", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.2}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/cmp" > /dev/null 2> "$T/cmp.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/cmp.err" >&2; fail "compare run with busy_poll_us exited $rc"; }
assert_eq "$(node -e '
const l = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
console.log(l.length + " " + l.every(x => x.result && x.result.config.busy_poll_us === 30));' \
    "$T/cmp/runs.jsonl")" "2 true" "busy_poll_us in every run's driver configuration"
assert_eq "$(json_get "$T/cmp/summary.json" 'this.rows[0].label.includes("busy-poll 30 µs")')" true \
    "the row's label names the polling: $(json_get "$T/cmp/summary.json" 'this.rows[0].label')"

# bad values name the flag (or key and file), the value and the range
set +e; "$DRIVER" redis --busy-poll-us 1001 2> "$T/flag.err"; rc=$?; set -e
assert_eq "$rc" 2 "exit code for --busy-poll-us 1001"
grep -q "'--busy-poll-us' value '1001': expected microseconds in 0..1000" "$T/flag.err" ||
    fail "the bad --busy-poll-us is not named: $(cat "$T/flag.err")"
printf '{"busy_poll_us": "fast"}' > "$T/bad.json"
"$DRIVER" redis --config "$T/bad.json" 2> "$T/bad.err" && fail "a bad busy_poll_us was accepted"
grep -q "$T/bad.json" "$T/bad.err" && grep -q "busy_poll_us" "$T/bad.err" ||
    fail "config error does not name the file and the key: $(cat "$T/bad.err")"
echo "ok: busy polling keeps every reply verified and exact counts, and backs off"
