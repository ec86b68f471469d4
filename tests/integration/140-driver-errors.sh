#!/bin/sh
# pairbench-test: untimed
# Failure paths: nothing listening → exit 3 with the connect message after one connect and
# the one wait that returns its error (no retry, no sleep: the 1 s window never starts); bad
# flags and bad config → exit 2 naming the flag/key and value; help and version → exit 0.
. "$(dirname "$0")/../lib.sh"
need strace

port=$(free_port) # nothing listens there
set +e
# (LeakSanitizer cannot run under ptrace: off for this run of a sanitized driver)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -f -qq -e trace=connect,poll,ppoll,epoll_wait,epoll_pwait,epoll_pwait2,nanosleep,clock_nanosleep \
    -o "$T/trace" "$DRIVER" tcp --port "$port" --duration 1 > "$T/out" 2> "$T/err"
rc=$?
set -e
assert_eq "$rc" 3 "exit code against a closed port"
grep -q "^driver: connect '127.0.0.1:$port': Connection refused$" "$T/err" \
    || fail "message: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "stdout not empty on failure"
# one non-blocking connect, one wait that returns its error, and nothing more: no retry, no
# window
assert_eq "$(grep -c "connect(.*htons($port)" "$T/trace")" 1 "connect calls to the closed port"
assert_eq "$(grep -E '(poll|epoll_wait|epoll_pwait2?|nanosleep)\(' "$T/trace" | grep -c 'EPOLLERR.*) = 1$')" 1 \
    "the wait that returns the refused connect: $(grep -E 'poll|sleep' "$T/trace" | head -n 3)"
assert_eq "$(grep -c -E '(poll|epoll_wait|epoll_pwait2?|nanosleep)\(' "$T/trace")" 1 \
    "waits before giving up: $(grep -E 'poll|sleep' "$T/trace" | head -n 3)"

check_usage() { # expected-substring cmd...
    want=$1; shift
    set +e
    "$@" > "$T/out" 2> "$T/err"
    rc=$?
    set -e
    assert_eq "$rc" 2 "exit code of: $*"
    grep -qF -- "$want" "$T/err" || fail "message of '$*' lacks \"$want\": $(cat "$T/err")"
}
check_usage "flag '--window' value 'abc'" "$DRIVER" tcp --window abc
check_usage "flag '--connections' value '0'" "$DRIVER" tcp --connections 0
check_usage "unknown flag '--bogus'" "$DRIVER" tcp --bogus
check_usage "unknown protocol 'udp'" "$DRIVER" udp
check_usage "unknown protocol 'redis'" "$DRIVER" serve redis
check_usage "--workers '4'" "$DRIVER" tcp --connections 2 --workers 4
# a schedule that leaves the window empty is refused before it runs, saying what would do
check_usage "--rate '0.001': 0.0005 requests due in the 0.5 s window; expected at least 10 ops/s" \
    "$DRIVER" tcp --rate 0.001 --arrival poisson --duration 0.5
check_usage "--rate '1': 0.5 requests due in the 0.5 s window; expected at least 2 ops/s (1 due" \
    "$DRIVER" tcp --rate 1 --duration 0.5
echo '{"pipline": 4}' > "$T/bad.json"
check_usage "'$T/bad.json': unknown key 'pipline'" "$DRIVER" tcp --config "$T/bad.json"
echo '{"pipeline": "4"}' > "$T/bad.json"
check_usage "key 'pipeline' value '\"4\"'" "$DRIVER" tcp --config "$T/bad.json"
check_usage "--config '$T/none.json'" "$DRIVER" tcp --config "$T/none.json"
# decimal seconds only; flags of another protocol refused; one port wording
check_usage "flag '--duration' value '0x10'" "$DRIVER" tcp --duration 0x10
check_usage "flag '--command' value 'SET': applies to 'driver redis' only" "$DRIVER" tcp --command SET
check_usage "'0': expected a port number 1..65535" "$DRIVER" tcp --port 0
check_usage "'65536': expected a port number 1..65535" "$DRIVER" serve tcp --port 65536

assert_exit 0 "$DRIVER" --help > /dev/null
assert_exit 0 "$DRIVER" tcp --help > /dev/null
"$DRIVER" --version | grep -q "^pairbench $(cat "$PAIRBENCH_TOP/VERSION") (" || fail "--version"
echo "ok: error paths"
