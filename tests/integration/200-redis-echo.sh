#!/bin/sh
# pairbench-test: untimed
# ECHO/PING against real redis-server and valkey-server: with --requests N --warmup 0 the
# server's INFO commandstats shows exactly N calls, for pipelines 1/16/64, windows 1/4,
# several workers and connections, payloads 1 B to 64 KiB; every reply verified.
. "$(dirname "$0")/../lib.sh"
need redis-cli

# Fields of the driver's one-line JSON result without starting node for each check.
res_ops() { grep -o '"ops": *[0-9]*' "$1" | grep -o '[0-9]*$'; }
res_errors() { # the sum of every error counter
    grep -o '"errors": *{[^}]*}' "$1" | grep -o ': *[0-9]*' | tr -d ': ' |
        awk '{s += $1} END {print s + 0}'
}
res_error() { grep -o "\"errors\": *{[^}]*}" "$1" | grep -o "\"$2\": *[0-9]*" | grep -o '[0-9]*$'; }

# run_exact PORT COMMAND N DRIVER-FLAGS...: the driver's ops, its error counters and the
# server's call count all agree with N.
run_exact() {
    port=$1; cmd=$2; n=$3; shift 3
    redis-cli -p "$port" CONFIG RESETSTAT >/dev/null
    "$DRIVER" redis --port "$port" --command "$cmd" --requests "$n" --warmup 0 "$@" \
        > "$T/out.json" 2> "$T/err.txt" || { cat "$T/err.txt" >&2; fail "driver failed: $cmd $*"; }
    lc=$(printf '%s' "$cmd" | tr 'A-Z' 'a-z')
    assert_eq "$(redis_calls "$port" "$lc")" "$n" "server calls for $cmd $*"
    assert_eq "$(res_ops "$T/out.json")" "$n" "driver ops for $cmd $*"
    assert_eq "$(res_errors "$T/out.json")" 0 \
        "errors for $cmd $*"
}

start_redis redis redis-server
rp=$REDIS_PORT
start_redis valkey valkey-server
vp=$REDIS_PORT

for port in "$rp" "$vp"; do
    run_exact "$port" ECHO 100 --pipeline 1 --window 1 --payload 1
    run_exact "$port" ECHO 1000 --pipeline 16 --window 4 --connections 4 --workers 2 --payload 1024
    run_exact "$port" ECHO 1001 --pipeline 16 --window 1 --connections 3 --workers 3 --payload 100
    run_exact "$port" ECHO 640 --pipeline 64 --window 4 --connections 2 --workers 1 --payload 65536
    run_exact "$port" ECHO 999 --pipeline 64 --window 1 --connections 5 --workers 2 --payload 7
    run_exact "$port" PING 500 --pipeline 16 --window 4 --connections 2
done

# The config file route gives the same exact count.
printf '{"port": %s, "command": "ECHO", "requests": 321, "warmup": 0, "pipeline": 4, "window": 4, "payload": 33}\n' \
    "$rp" > "$T/cfg.json"
redis-cli -p "$rp" CONFIG RESETSTAT >/dev/null
"$DRIVER" redis --config "$T/cfg.json" > "$T/out.json"
assert_eq "$(redis_calls "$rp" echo)" 321 "calls with --config"

# A duration run: throughput and latency are there, every reply verified.
"$DRIVER" redis --port "$rp" --warmup 0.1 --duration 0.3 --pipeline 16 --window 4 \
    --connections 2 --payload 512 > "$T/out.json"
ops=$(res_ops "$T/out.json")
[ "$ops" -gt 0 ] || fail "duration run: ops '$ops'"
assert_eq "$(json_get "$T/out.json" '[this.unit, this.errors.verify + this.errors.protocol,
    this.latency_us.samples > 0, this.protocol].join(" ")')" "commands/s 0 true redis" \
    "duration run: unit, errors, latency samples, protocol"
echo ok
