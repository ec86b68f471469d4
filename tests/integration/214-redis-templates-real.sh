#!/bin/sh
# pairbench-test: untimed
# Templates, mixes and setup against real redis-server 7.0 and valkey-server 8.0: with AUTH
# and RESP2/RESP3 the server's INFO commandstats shows exactly the setup's commands and the
# template's N calls, the hash is hashtable-encoded after a 200-field setup under
# --hash-max-listpack-entries 64, and DBSIZE matches the result's setup.keys; a template
# against the wrong type is a failed run with "WRONGTYPE ..."; over TLS with AUTH the setup
# and a mix run clean; a setup larger than the handshake buffer is refused (exit 2).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/tls-lib.sh"
need redis-cli
tls_pki

pw="tmpl-Pw-$$"
SETUP='[{"command": "HSET h f__i__ v__i__", "count": 200}, "SET s __data__", ["SADD", "set a", "b"]]'
for bin in redis-server valkey-server; do
    start_redis "$bin" "$bin" --requirepass "$pw" --hash-max-listpack-entries 64
    p=$REDIS_PORT
    for resp in 2 3; do
        redis-cli -p "$p" -a "$pw" --no-auth-warning FLUSHALL >/dev/null
        redis-cli -p "$p" -a "$pw" --no-auth-warning CONFIG RESETSTAT >/dev/null
        PAIRBENCH_REDIS_PASSWORD=$pw "$DRIVER" redis --port "$p" --auth --resp "$resp" \
            --command 'HDEL h f157 f3 f9' --setup "$SETUP" --requests 500 --warmup 0 \
            --connections 4 --pipeline 5 > "$T/out.json" 2> "$T/err.txt" ||
            { cat "$T/err.txt"; fail "$bin resp$resp: driver failed"; }
        calls() { redis-cli -p "$p" -a "$pw" --no-auth-warning INFO commandstats | tr -d '\r' |
            sed -n "s/^cmdstat_$1:calls=\([0-9]*\),.*/\1/p"; }
        assert_eq "$(calls hset)" 200 "$bin resp$resp: HSET calls"
        assert_eq "$(calls set)" 1 "$bin resp$resp: SET calls"
        assert_eq "$(calls sadd)" 1 "$bin resp$resp: SADD calls"
        assert_eq "$(calls dbsize)" 1 "$bin resp$resp: DBSIZE calls"
        assert_eq "$(calls hdel)" 500 "$bin resp$resp: HDEL calls"
        assert_eq "$(redis-cli -p "$p" -a "$pw" --no-auth-warning OBJECT ENCODING h | tr -d '\r')" \
            hashtable "$bin: encoding"
        assert_eq "$(redis-cli -p "$p" -a "$pw" --no-auth-warning HLEN h | tr -d '\r')" 197 "$bin: HLEN"
        assert_eq "$(json_get "$T/out.json" 'this.setup.keys + "/" + this.setup.commands + "/" + this.ops + "/" + this.status')" \
            "3/202/500/ok" "$bin resp$resp: result"
    done
    # the wrong type: a failed run naming the server's reply
    assert_exit 3 env PAIRBENCH_REDIS_PASSWORD="$pw" "$DRIVER" redis --port "$p" --auth \
        --command 'HDEL s f1' --requests 100 --warmup 0 > "$T/out.json" 2> "$T/err.txt"
    assert_eq "$(json_get "$T/out.json" 'this.status + " " + this.first_error.slice(0, 16)')" \
        "failed redis: WRONGTYPE" "$bin: WRONGTYPE"
done

# TLS with AUTH: setup and a mix
for bin in redis-server valkey-server; do
    start_redis_tls "$bin-tls" "$bin" server no --requirepass "$pw"
    PAIRBENCH_REDIS_PASSWORD=$pw "$DRIVER" redis --port "$TLS_PORT" --transport tls \
        --cacert "$PKI/ca.pem" --auth --resp 3 --setup "$SETUP" --keyspace 100 \
        --commands '[{"command": "SET __key__ __data__"}, {"command": "GET __key__", "weight": 4}]' \
        --requests 1000 --warmup 0 --connections 2 > "$T/out.json" 2> "$T/err.txt" ||
        { cat "$T/err.txt"; fail "$bin tls: driver failed"; }
    assert_eq "$(json_get "$T/out.json" 'this.status + " " + this.setup.keys + " " + (this.commands[0].ops + this.commands[1].ops)')" \
        "ok 3 1000" "$bin tls: result"
done

# a setup beyond the handshake buffer is refused before connecting
assert_exit 2 "$DRIVER" redis --port 1 --payload 1 \
    --setup '[{"command": "SET k__i__ __data__", "count": 20000}]' 2> "$T/err.txt"
grep -q -- "--setup '.*bytes the setup may hold (at --payload 1: 64 KiB + 1024 x (payload + 64)" "$T/err.txt" ||
    fail "size: $(cat "$T/err.txt")"
echo ok
