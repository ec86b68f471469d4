#!/bin/sh
# pairbench-test: untimed
# The reference servers answer requests past their limits as the RFCs say, then close:
#  - WebSocket: a message over max(64 KiB, --payload) gets a Close frame with status 1009,
#    which the npm 'ws' client reports as 1009 (not 1006, an abnormal closure), also when
#    the message comes in fragments; a message at the limit is echoed;
#  - HTTP: a body over max(64 KiB, --payload) gets 413, a header section over 16 KiB gets
#    431, each with "Connection: close", read by curl rather than lost to a reset.
# Cost: about 2 s.
. "$(dirname "$0")/../lib.sh"
need node
need curl

WS=$(free_port)
HTTP=$(free_port)
start_bg ws "$DRIVER" serve ws --port "$WS"
start_bg http "$DRIVER" serve http --port "$HTTP"
wait_port "$WS"
wait_port "$HTTP"

NODE_PATH="$TOP/tests/node_modules" node -e '
const WebSocket = require("ws");
const port = process.argv[1], LIMIT = 64 * 1024;
function one(name, send) {
  return new Promise((resolve) => {
    const ws = new WebSocket("ws://127.0.0.1:" + port + "/");
    let echoed = -1;
    ws.on("open", () => send(ws));
    ws.on("message", (m) => { echoed = m.length; ws.close(1000); });
    ws.on("error", () => {});
    ws.on("close", (code, reason) => resolve([name, code, echoed, String(reason)]));
  });
}
(async () => {
  const r = [];
  r.push(await one("at the limit", (ws) => ws.send(Buffer.alloc(LIMIT, 97))));
  r.push(await one("one byte over", (ws) => ws.send(Buffer.alloc(LIMIT + 1, 97))));
  r.push(await one("fragments over", (ws) => {
    ws.send(Buffer.alloc(40000, 97), { fin: false });
    ws.send(Buffer.alloc(40000, 97), { fin: true });
  }));
  r.push(await one("1 MiB", (ws) => ws.send(Buffer.alloc(1 << 20, 97))));
  console.log(JSON.stringify(r));
})();
' "$WS" > "$T/ws.json" || fail "ws client failed"
assert_eq "$(cat "$T/ws.json")" \
    '[["at the limit",1000,65536,""],["one byte over",1009,-1,"message too big"],["fragments over",1009,-1,"message too big"],["1 MiB",1009,-1,"message too big"]]' \
    "WebSocket close codes"

# HTTP: 413 for a body past the limit, 431 for a header section past 16 KiB; a body at the
# limit is echoed
head -c 65536 /dev/zero | tr '\0' a > "$T/ok.bin"
head -c 70000 /dev/zero | tr '\0' a > "$T/big.bin"
code=$(curl -s -o /dev/null -w '%{http_code}' --data-binary "@$T/ok.bin" "http://127.0.0.1:$HTTP/")
assert_eq "$code" 200 "POST of 64 KiB"
curl -s -D "$T/h413" -o /dev/null -w '%{http_code}' -H 'Expect:' --data-binary "@$T/big.bin" \
    "http://127.0.0.1:$HTTP/" > "$T/c413" || true
assert_eq "$(cat "$T/c413")" 413 "POST of 70000 bytes"
grep -qi '^connection: close' "$T/h413" || fail "413 without Connection: close: $(cat "$T/h413")"
big=$(head -c 20000 /dev/zero | tr '\0' x)
curl -s -D "$T/h431" -o /dev/null -w '%{http_code}' -H "X-Big: $big" "http://127.0.0.1:$HTTP/" \
    > "$T/c431" || true
assert_eq "$(cat "$T/c431")" 431 "GET with a 20 kB header"
grep -qi '^connection: close' "$T/h431" || fail "431 without Connection: close"
# a 1 MB header section: still 431, not a reset
huge=$(head -c 1000000 /dev/zero | tr '\0' y)
printf 'X-Huge: %s\r\n' "$huge" > "$T/hdr"
curl -s -o /dev/null -w '%{http_code}' -H "@$T/hdr" "http://127.0.0.1:$HTTP/" > "$T/c1m" || true
assert_eq "$(cat "$T/c1m")" 431 "GET with a 1 MB header"
kill -0 "$(echo $PIDS | awk '{print $1}')" || fail "the ws server died"
echo "ok: 1009, 413 and 431"
