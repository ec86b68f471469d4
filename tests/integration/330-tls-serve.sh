#!/bin/sh
# pairbench-test: untimed
# The reference servers over TLS (driver serve tcp|http|ws --transport tls --cert --key):
# the driver's own client against them with verification on, payloads large enough for
# several records and short writes, pipelines and windows; and independent TLS clients
# (socat/OpenSSL, curl, node's ws) against the same servers; and --serve (in-process server)
# over TLS.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/tls-lib.sh"
tls_pki
need socat
need curl
need node

RUN="--warmup 0.1 --duration 0.3 --transport tls --cacert $PKI/ca.pem"
SRV="--transport tls --cert $PKI/server.pem --key $PKI/server.key"

serve() { # proto [flags] -> PORT
    PORT=$(free_port)
    p=$1; shift
    start_bg "serve-$p" "$DRIVER" serve "$p" --port "$PORT" --workers 2 $SRV "$@"
    wait_port "$PORT"
}

# tcp echo
serve tcp
drv tcp-small tcp --port "$PORT" $RUN --connections 4 --workers 2 --payload 64
assert_clean_run tcp-small
drv tcp-big tcp --port "$PORT" $RUN --connections 2 --payload 100000 --pipeline 4 --window 2
assert_clean_run tcp-big
drv tcp-name tcp --port "$PORT" $RUN --host localhost --payload 300
assert_clean_run tcp-name
# IPv6: the certificate's IP:::1 SAN
P6=$(free_port)
start_bg serve-v6 "$DRIVER" serve tcp --host ::1 --port "$P6" $SRV
i=0
until socat -T1 /dev/null "TCP6:[::1]:$P6" 2>/dev/null; do
    i=$((i + 1)); [ $i -lt 100 ] || fail "serve tcp on ::1 never listened"; sleep 0.1
done
drv tcp-v6 tcp --host ::1 --port "$P6" $RUN
assert_clean_run tcp-v6
got=$(printf 'hello tls\n' | socat -T2 - "OPENSSL:127.0.0.1:$PORT,cafile=$PKI/ca.pem,commonname=127.0.0.1" 2>"$T/socat.err" | head -c 9) || true
assert_eq "$got" "hello tls" "socat over tls to serve tcp ($(cat "$T/socat.err"))"

# http (the reference server answers GET with --payload bytes)
serve http --payload 2000
drv http http --port "$PORT" $RUN --connections 2 --payload 2000
assert_clean_run http
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 --cacert "$PKI/ca.pem" \
    "https://127.0.0.1:$PORT/") || fail "curl https to serve http failed"
assert_eq "$code" 200 "curl https status"

# ws
serve ws
drv ws ws --port "$PORT" $RUN --connections 2 --payload 5000 --pipeline 2
assert_clean_run ws
NODE_PATH="$TOP/tests/node_modules" node -e '
const WebSocket = require("ws"), fs = require("fs");
const ws = new WebSocket("wss://127.0.0.1:" + process.argv[1] + "/", {ca: fs.readFileSync(process.argv[2])});
const t = setTimeout(() => { console.error("ws timeout"); process.exit(1); }, 5000);
ws.on("open", () => ws.send("hello wss"));
ws.on("message", (m) => { clearTimeout(t); if (String(m) !== "hello wss") process.exit(1); ws.close(); process.exit(0); });
ws.on("error", (e) => { console.error(String(e)); process.exit(1); });
' "$PORT" "$PKI/ca.pem" || fail "node wss client against serve ws"
# colocated (--serve): cert/key are the in-process server's, --cacert what its client trusts
drv colo-tcp tcp --serve $RUN --cert "$PKI/server.pem" --key "$PKI/server.key" --payload 700
assert_clean_run colo-tcp
drv colo-http http --serve $RUN --cert "$PKI/server.pem" --key "$PKI/server.key" --window 2
assert_clean_run colo-http
drv colo-wrong tcp --serve $RUN --cert "$PKI/wrongsan.pem" --key "$PKI/wrongsan.key"
assert_eq "$RC" 3 "--serve with a wrong-SAN certificate"
assert_err colo-wrong "IP address mismatch"
check_runs
echo "330-tls-serve: ok"
