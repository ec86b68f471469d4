#!/bin/sh
# pairbench-test: untimed
# Every redis-benchmark suite command against a real redis-server: under --requests N the
# server's INFO commandstats shows exactly N calls (LRANGE_N: plus one LPUSH and one LTRIM
# prefill per connection), zero errors, GET verifies what SET wrote, wrong values are caught.
. "$(dirname "$0")/../lib.sh"
need redis-cli

# Fields of the driver's one-line JSON result without starting node for each check.
res_ops() { grep -o '"ops": *[0-9]*' "$1" | grep -o '[0-9]*$'; }
res_errors() { # the sum of every error counter
    grep -o '"errors": *{[^}]*}' "$1" | grep -o ': *[0-9]*' | tr -d ': ' |
        awk '{s += $1} END {print s + 0}'
}
res_error() { grep -o "\"errors\": *{[^}]*}" "$1" | grep -o "\"$2\": *[0-9]*" | grep -o '[0-9]*$'; }

start_redis redis redis-server
p=$REDIS_PORT
n=203
conns=2

suite() { # PORT RESP
    for cmd in PING ECHO SET GET INCR LPUSH RPUSH LPOP RPOP SADD HSET SPOP ZADD ZPOPMIN MSET \
               LRANGE_100 LRANGE_300 LRANGE_500 LRANGE_600; do
        redis-cli -p "$1" CONFIG RESETSTAT >/dev/null
        "$DRIVER" redis --port "$1" --resp "$2" --command "$cmd" --requests $n --warmup 0 \
            --pipeline 4 --window 2 --connections $conns --keyspace 1000 --payload 64 \
            > "$T/out.json" 2> "$T/err.txt" || { cat "$T/err.txt" >&2; fail "$cmd: driver failed"; }
        case $cmd in
        LRANGE_*)
            assert_eq "$(redis_calls "$1" lrange)" $n "$cmd: LRANGE calls"
            assert_eq "$(redis_calls "$1" lpush)" $conns "$cmd: prefill LPUSH calls"
            assert_eq "$(redis_calls "$1" ltrim)" $conns "$cmd: prefill LTRIM calls"
            ;;
        *)
            lc=$(printf '%s' "$cmd" | tr 'A-Z' 'a-z')
            assert_eq "$(redis_calls "$1" "$lc")" $n "$cmd: server calls"
            ;;
        esac
        assert_eq "$(res_ops "$T/out.json")" $n "$cmd: driver ops"
        assert_eq "$(res_errors "$T/out.json")" 0 \
            "$cmd: errors"
    done
}
suite "$p" 2

# The LRANGE list holds exactly N elements after the prefill's LTRIM (never grows).
assert_eq "$(redis-cli -p "$p" LLEN mylist | tr -d '\r')" 600 "mylist length"
# MSET with --keyspace wrote random 12-digit keys.
redis-cli -p "$p" --scan --pattern 'key:000000000*' | head -n 1 | grep -q '^key:[0-9]\{12\}$' ||
    fail "no key:NNNNNNNNNNNN keys"

# GET of keys SET with another value size: mismatches are verify errors, not successes.
"$DRIVER" redis --port "$p" --command SET --requests 400 --warmup 0 --keyspace 20 \
    --payload 8 > /dev/null
"$DRIVER" redis --port "$p" --command GET --requests 400 --warmup 0 --keyspace 40 \
    --payload 16 > "$T/out.json" || true
v=$(res_error "$T/out.json" verify)
[ "$v" -gt 0 ] || fail "GET of other-sized values: verify errors '$v', expected > 0"

# A wrong-type key is an error reply: counted as protocol errors.
redis-cli -p "$p" SET myzset notazset >/dev/null
set +e
"$DRIVER" redis --port "$p" --command ZADD --requests 50 --warmup 0 > "$T/out.json" 2> "$T/err.txt"
rc=$?
set -e
if [ $rc -eq 0 ]; then
    pe=$(res_error "$T/out.json" protocol)
    [ "$pe" -gt 0 ] || fail "ZADD on a string: protocol errors '$pe'"
else
    assert_eq "$rc" 3 "ZADD on a string: exit code"
fi

# The same suite against valkey-server over RESP3.
start_redis valkey valkey-server
suite "$REDIS_PORT" 3
echo ok
