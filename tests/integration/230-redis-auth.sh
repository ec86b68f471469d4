#!/bin/sh
# pairbench-test: untimed
# --auth against real servers with requirepass and an ACL user: password from the
# environment and from --password-file, RESP2 (AUTH) and RESP3 (HELLO 3 AUTH); a wrong
# password exits 3 with a clear message; the password is never in the driver's
# /proc/PID/cmdline, stdout or stderr.
. "$(dirname "$0")/../lib.sh"
need redis-cli

# Fields of the driver's one-line JSON result without starting node for each check.
res_ops() { grep -o '"ops": *[0-9]*' "$1" | grep -o '[0-9]*$'; }
res_errors() { # the sum of every error counter
    grep -o '"errors": *{[^}]*}' "$1" | grep -o ': *[0-9]*' | tr -d ': ' |
        awk '{s += $1} END {print s + 0}'
}
res_error() { grep -o "\"errors\": *{[^}]*}" "$1" | grep -o "\"$2\": *[0-9]*" | grep -o '[0-9]*$'; }

pw="default-Pw-7f3a91"
apw="alice-Pw-c04e2b"

ok_run() { # NAME FLAGS...: a run that must succeed with zero errors
    name=$1; shift
    "$DRIVER" redis "$@" > "$T/out.json" 2> "$T/err.txt" ||
        { cat "$T/err.txt" >&2; fail "$name: driver failed"; }
    assert_eq "$(res_ops "$T/out.json")" 200 "$name: ops"
    assert_eq "$(res_errors "$T/out.json")" 0 \
        "$name: errors"
    for s in "$pw" "$apw"; do
        if grep -q -- "$s" "$T/out.json" "$T/err.txt"; then fail "$name: password in output"; fi
    done
}

for bin in redis-server valkey-server; do
    start_redis "$bin" "$bin" --requirepass "$pw" --user alice on ">$apw" '~*' '&*' '+@all'
    p=$REDIS_PORT
    common="--port $p --requests 200 --warmup 0 --pipeline 4 --connections 2"

    # default user, password from the environment, RESP2 and RESP3
    for resp in 2 3; do
        PAIRBENCH_REDIS_PASSWORD=$pw ok_run "$bin env resp$resp" $common --auth --resp $resp
        PAIRBENCH_REDIS_PASSWORD=$pw ok_run "$bin env resp$resp SET" $common --auth \
            --resp $resp --command SET --keyspace 100
    done
    # ACL user, password from the environment and from a file
    printf '%s\n' "$apw" > "$T/pw"
    chmod 600 "$T/pw"
    for resp in 2 3; do
        PAIRBENCH_REDIS_USER=alice PAIRBENCH_REDIS_PASSWORD=$apw \
            ok_run "$bin alice env resp$resp" $common --auth --resp $resp --command GET
        PAIRBENCH_REDIS_USER=alice ok_run "$bin alice file resp$resp" $common --auth \
            --resp $resp --password-file "$T/pw"
    done
    # the default user's password from a file
    printf '%s' "$pw" > "$T/pw0"
    ok_run "$bin file" $common --auth --password-file "$T/pw0"

    # wrong password: exit 3, a clear message, no password in it
    for resp in 2 3; do
        set +e
        PAIRBENCH_REDIS_PASSWORD="wrong-$pw" "$DRIVER" redis $common --auth --resp $resp \
            > "$T/out.json" 2> "$T/err.txt"
        rc=$?
        set -e
        assert_eq "$rc" 3 "$bin wrong password resp$resp: exit code"
        grep -q "redis: AUTH failed: WRONGPASS" "$T/err.txt" ||
            fail "$bin wrong password resp$resp: message: $(cat "$T/err.txt")"
        if grep -q -- "$pw" "$T/err.txt" "$T/out.json"; then fail "password in the error output"; fi
    done

    # no --auth against a protected server: every reply is an error, the run fails
    set +e
    "$DRIVER" redis $common > "$T/out.json" 2> "$T/err.txt"
    rc=$?
    set -e
    [ $rc -ne 0 ] || [ "$(res_error "$T/out.json" protocol)" -gt 0 ] ||
        fail "$bin: unauthenticated run reported success without errors"
done

# --auth without any password: bad usage, exit 2, says where the password comes from
set +e
env -u PAIRBENCH_REDIS_PASSWORD "$DRIVER" redis --port "$p" --auth --requests 1 --warmup 0 \
    > /dev/null 2> "$T/err.txt"
rc=$?
set -e
assert_eq "$rc" 2 "--auth without password: exit code"
grep -q PAIRBENCH_REDIS_PASSWORD "$T/err.txt" || fail "--auth without password: message"

# The password is not in the running driver's command line (read while it runs).
PAIRBENCH_REDIS_PASSWORD=$pw "$DRIVER" redis --port "$p" --auth --warmup 0 --duration 1 \
    > "$T/out.json" 2> "$T/err.txt" &
dpid=$!
PIDS="$PIDS $dpid"
# until the forked shell has exec'd the driver (bounded: 5 s)
i=0
while [ $i -lt 250 ]; do
    tr '\0' ' ' < "/proc/$dpid/cmdline" > "$T/cmdline" 2>/dev/null || fail "driver exited early"
    grep -q -- "--auth" "$T/cmdline" && break
    sleep 0.02; i=$((i + 1))
done
grep -q -- "--auth" "$T/cmdline" || fail "cmdline not the driver's: $(cat "$T/cmdline")"
if grep -q -- "$pw" "$T/cmdline"; then fail "password in /proc/$dpid/cmdline"; fi
wait $dpid || fail "timed driver run failed: $(cat "$T/err.txt")"
if grep -q -- "$pw" "$T/out.json" "$T/err.txt"; then fail "password in output"; fi
[ "$(res_ops "$T/out.json")" -gt 0 ] || fail "timed auth run: no ops"
echo ok
