#!/bin/sh
# pairbench-test: untimed
# Client certificates: redis-server with --tls-auth-clients yes, and the driver's own TLS echo
# server given --cacert, accept --cert/--key and refuse a client without one, cleanly (exit 3,
# a message naming the peer, no hang).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/tls-lib.sh"
tls_pki

RUN="--warmup 0.05 --duration 0.2 --transport tls --cacert $PKI/ca.pem"
CERT="--cert $PKI/client.pem --key $PKI/client.key"

start_redis_tls required redis-server server yes
drv r-cert redis --port "$TLS_PORT" $RUN $CERT --command SET
assert_clean_run r-cert
drv r-nocert redis --port "$TLS_PORT" $RUN --command SET
assert_eq "$RC" 3 "redis without a client certificate"
assert_err r-nocert "127.0.0.1:$TLS_PORT"
assert_err r-nocert "alert certificate required"
# a certificate from a CA the server does not trust is refused too
drv r-othercert redis --port "$TLS_PORT" $RUN --cert "$PKI/unknown.pem" --key "$PKI/unknown.key"
assert_eq "$RC" 3 "redis with an untrusted client certificate"
assert_err r-othercert "alert unknown ca"

P=$(free_port)
start_bg serve "$DRIVER" serve tcp --port "$P" --transport tls --cert "$PKI/server.pem" \
    --key "$PKI/server.key" --cacert "$PKI/ca.pem"
wait_port "$P"
drv t-cert tcp --port "$P" $RUN $CERT --connections 2
assert_clean_run t-cert
drv t-nocert tcp --port "$P" $RUN
assert_eq "$RC" 3 "tcp without a client certificate"
assert_err t-nocert "alert certificate required"
# the server survives refused clients
drv t-cert2 tcp --port "$P" $RUN $CERT
assert_clean_run t-cert2
check_runs
echo "320-tls-client-cert: ok"
