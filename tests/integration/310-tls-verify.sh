#!/bin/sh
# pairbench-test: untimed
# Verification is on by default and refuses, with OpenSSL's reason and exit 3: a server
# certificate without the right SAN (IP and DNS identities), a chain from an unknown CA, a
# server the system store does not know. --insecure accepts them and the result says so.
# Against redis-server and against the driver's own TLS echo server. A peer that does not
# speak TLS, or says nothing, fails the run (exit 3) without hanging.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/tls-lib.sh"
tls_pki

RUN="--warmup 0.05 --duration 0.2"

# redis-server with a certificate for 10.9.9.9 / wrong.example
start_redis_tls wrongsan redis-server wrongsan optional
WRONG=$TLS_PORT
drv r-wrongsan redis --port "$WRONG" --transport tls --cacert "$PKI/ca.pem" $RUN
assert_eq "$RC" 3 "wrong SAN exit"
assert_err r-wrongsan "certificate verify failed: IP address mismatch"
assert_err r-wrongsan "127.0.0.1:$WRONG"
drv r-wrongname redis --port "$WRONG" --transport tls --cacert "$PKI/ca.pem" --sni localhost $RUN
assert_eq "$RC" 3 "wrong SAN (name) exit"
assert_err r-wrongname "hostname mismatch"
drv r-wrongsan-insecure redis --port "$WRONG" --transport tls --cacert "$PKI/ca.pem" --insecure $RUN
assert_clean_run r-wrongsan-insecure "this.tls.insecure === true"

# redis-server with a certificate from a CA we do not trust
start_redis_tls unknown redis-server unknown optional
drv r-unknown redis --port "$TLS_PORT" --transport tls --cacert "$PKI/ca.pem" $RUN
assert_eq "$RC" 3 "unknown CA exit"
assert_err r-unknown "unable to get local issuer certificate"
drv r-system redis --port "$TLS_PORT" --transport tls $RUN # system store only
assert_eq "$RC" 3 "system store exit"
assert_err r-system "certificate verify failed"
drv r-unknown-insecure redis --port "$TLS_PORT" --transport tls --insecure $RUN
assert_clean_run r-unknown-insecure "this.tls.insecure === true"

# verified runs say insecure false
start_redis_tls good redis-server server optional
drv r-good redis --port "$TLS_PORT" --transport tls --cacert "$PKI/ca.pem" $RUN
assert_clean_run r-good "this.tls.insecure === false"

# the driver's TLS echo server: the same refusals
for cert in wrongsan unknown; do
    P=$(free_port)
    start_bg "serve-$cert" "$DRIVER" serve tcp --port "$P" --transport tls \
        --cert "$PKI/$cert.pem" --key "$PKI/$cert.key"
    wait_port "$P"
    drv "t-$cert" tcp --port "$P" --transport tls --cacert "$PKI/ca.pem" $RUN
    assert_eq "$RC" 3 "tcp $cert exit"
    assert_err "t-$cert" "certificate verify failed"
    drv "t-$cert-insecure" tcp --port "$P" --transport tls --insecure $RUN
    assert_clean_run "t-$cert-insecure"
done
# not a TLS server at all: the plain echo server reflects the ClientHello; a silent peer
# never answers it (bounded by --timeout)
P=$(free_port)
start_bg serve-plain "$DRIVER" serve tcp --port "$P"
wait_port "$P"
drv t-plain tcp --port "$P" --transport tls --cacert "$PKI/ca.pem" $RUN
assert_eq "$RC" 3 "tls client against a plain server"
assert_err t-plain "tls handshake with '127.0.0.1:$P'"
need socat
P=$(free_port)
start_bg silent socat "TCP-LISTEN:$P,bind=127.0.0.1,reuseaddr,fork" "EXEC:sleep 3"
wait_port "$P"
drv t-silent tcp --port "$P" --transport tls --cacert "$PKI/ca.pem" $RUN --timeout 1
assert_eq "$RC" 3 "tls client against a silent server"
check_runs
echo "310-tls-verify: ok"
