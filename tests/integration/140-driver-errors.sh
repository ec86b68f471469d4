#!/bin/sh
# pairbench-test: untimed
# Failure paths: nothing listening → exit 3 quickly with the connect message; bad flags and
# bad config → exit 2 naming the flag/key and value; help and version → exit 0.
. "$(dirname "$0")/../lib.sh"

port=$(free_port) # nothing listens there
start=$(date +%s)
set +e
"$DRIVER" tcp --port "$port" --duration 1 > "$T/out" 2> "$T/err"
rc=$?
set -e
end=$(date +%s)
assert_eq "$rc" 3 "exit code against a closed port"
grep -q "^driver: connect '127.0.0.1:$port': Connection refused$" "$T/err" \
    || fail "message: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "stdout not empty on failure"
[ $((end - start)) -le 2 ] || fail "refused took $((end - start))s"

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
