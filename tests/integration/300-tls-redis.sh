#!/bin/sh
# pairbench-test: untimed
# Redis over TLS against real redis-server and valkey-server (TLS port only, requirepass and
# an ACL user): ECHO/SET/GET with RESP2 and RESP3 and AUTH, the chain and the IP SAN verified;
# a client certificate offered where optional; a wrong password is exit 3; TLS 1.2.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/tls-lib.sh"
tls_pki

PASS=not-the-real-one-$$
T_TLS="--transport tls --cacert $PKI/ca.pem --warmup 0.05 --duration 0.2 --connections 2"

for bin in redis-server valkey-server; do
    start_redis_tls "$bin" "$bin" server optional --requirepass "$PASS" \
        --user alice on '>secret' '~*' '&*' '+@all'
    # RESP2 as the default user (requirepass), RESP3 as the ACL user (HELLO 3 AUTH)
    for cmd in ECHO SET GET; do
        PAIRBENCH_REDIS_PASSWORD=$PASS drv "$bin-2-$cmd" redis --port "$TLS_PORT" $T_TLS \
            --resp 2 --auth --command "$cmd"
        assert_clean_run "$bin-2-$cmd" "this.config.resp === 2"
        PAIRBENCH_REDIS_USER=alice PAIRBENCH_REDIS_PASSWORD=secret drv "$bin-3-$cmd" redis \
            --port "$TLS_PORT" $T_TLS --resp 3 --auth --command "$cmd" --pipeline 4
        assert_clean_run "$bin-3-$cmd" "this.config.resp === 3"
    done
    # the password is in no output
    if grep -q -F "$PASS" "$T/$bin"-*.json "$T/$bin"-*.err; then fail "password in output"; fi

    # optional client certificate, offered
    PAIRBENCH_REDIS_PASSWORD=$PASS drv "$bin-cert" redis --port "$TLS_PORT" $T_TLS --auth \
        --cert "$PKI/client.pem" --key "$PKI/client.key" --command GET
    assert_clean_run "$bin-cert"

    # the identity checked by name through --sni (server cert has DNS:localhost)
    PAIRBENCH_REDIS_PASSWORD=$PASS drv "$bin-sni" redis --port "$TLS_PORT" $T_TLS --auth \
        --sni localhost --command PING
    assert_clean_run "$bin-sni"

    # wrong password over TLS: exit 3, a clear message, no secret in it
    PAIRBENCH_REDIS_PASSWORD=wrong-$$ drv "$bin-badpw" redis --port "$TLS_PORT" $T_TLS --auth \
        --command ECHO
    assert_eq "$RC" 3 "$bin wrong password exit"
    [ -s "$T/$bin-badpw.err" ] || fail "$bin wrong password: no message"
    if grep -q -F "wrong-$$" "$T/$bin-badpw.err"; then fail "password in message"; fi
    kill "$LAST_PID"
done

# TLS 1.2 only on the server side
start_redis_tls tls12 redis-server server optional --tls-protocols TLSv1.2
drv tls12 redis --port "$TLS_PORT" $T_TLS --command SET --pipeline 8
assert_clean_run tls12
check_runs
echo "300-tls-redis: ok"
