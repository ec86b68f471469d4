#!/bin/sh
# pairbench-test: untimed
# --resp 3 against real redis-server and valkey-server: one HELLO 3 per connection, RESP3
# replies (nulls, maps, doubles in ZPOPMIN) verified, exact counts under --requests.
. "$(dirname "$0")/../lib.sh"
need redis-cli

# Fields of the driver's one-line JSON result without starting node for each check.
res_ops() { grep -o '"ops": *[0-9]*' "$1" | grep -o '[0-9]*$'; }
res_errors() { # the sum of every error counter
    grep -o '"errors": *{[^}]*}' "$1" | grep -o ': *[0-9]*' | tr -d ': ' |
        awk '{s += $1} END {print s + 0}'
}
res_error() { grep -o "\"errors\": *{[^}]*}" "$1" | grep -o "\"$2\": *[0-9]*" | grep -o '[0-9]*$'; }

check() { # PORT COMMAND N CONNS FLAGS...
    port=$1; cmd=$2; n=$3; conns=$4; shift 4
    redis-cli -p "$port" CONFIG RESETSTAT >/dev/null
    "$DRIVER" redis --port "$port" --resp 3 --command "$cmd" --requests "$n" --warmup 0 \
        --connections "$conns" "$@" > "$T/out.json" 2> "$T/err.txt" ||
        { cat "$T/err.txt" >&2; fail "$cmd resp3: driver failed"; }
    assert_eq "$(redis_calls "$port" hello)" "$conns" "$cmd: HELLO calls"
    lc=$(printf '%s' "$cmd" | tr 'A-Z' 'a-z')
    case $cmd in LRANGE_*) lc=lrange ;; esac
    assert_eq "$(redis_calls "$port" "$lc")" "$n" "$cmd: server calls"
    assert_eq "$(res_ops "$T/out.json")" "$n" "$cmd: ops"
    assert_eq "$(res_errors "$T/out.json")" 0 \
        "$cmd: errors"
}

for bin in redis-server valkey-server; do
    start_redis "$bin" "$bin"
    p=$REDIS_PORT
    check "$p" ECHO 500 3 --pipeline 16 --window 4 --payload 4096 --workers 3
    check "$p" GET 300 2 --pipeline 8 --keyspace 100000   # mostly RESP3 nulls
    check "$p" SET 300 2 --pipeline 8 --keyspace 50
    check "$p" GET 300 2 --pipeline 8 --keyspace 50       # values written above
    check "$p" ZADD 200 1 --pipeline 4 --keyspace 1000
    check "$p" ZPOPMIN 300 2 --pipeline 4                 # [member, double], then empty
    check "$p" HSET 100 2 --keyspace 10
    check "$p" LRANGE_100 100 2 --pipeline 2
done

# A server that does not speak RESP3 would answer HELLO with an error: the handshake
# failure is reported, not measured. Simulated with a renamed HELLO on redis-server.
start_redis nohello redis-server --rename-command HELLO ""
set +e
"$DRIVER" redis --port "$REDIS_PORT" --resp 3 --requests 10 --warmup 0 > "$T/out.json" 2> "$T/err.txt"
rc=$?
set -e
assert_eq "$rc" 3 "HELLO refused: exit code"
grep -q "redis: HELLO 3 failed: ERR unknown command" "$T/err.txt" ||
    fail "HELLO refused: message: $(cat "$T/err.txt")"
echo ok
