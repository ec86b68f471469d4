#!/bin/sh
# pairbench-test: untimed
# A setup is sized before it is built and checked byte by byte: a generator of 10,000,000
# commands of 64 MiB is refused at once (under a 1.5 GB address-space limit, naming the bytes
# it would take and the limit with its rule); 300 x 1 MiB, within 1024 x (payload + 64), is
# refused up front naming the driver's 256 MiB cap on a connection's first bytes (it used to
# fail later as "could not build the connection's hello bytes"); an inline setup file with a
# NUL byte is refused naming its line and column (it used to end the file there: 1 of 3
# commands sent), by the driver and by compare before any run; so is a byte of no UTF-8
# character (0xff, a surrogate), which was sent as it was. A setup command that blocks
# (BLPOP) times out naming the setup, not a bare handshake. compare sizes a setup without
# building it, and quotes a driver's refusal from its start. A setup file of 4 commands
# (one with UTF-8 text) within the limits reaches a real redis-server whole. Cost: well under a second.
. "$(dirname "$0")/../lib.sh"
need redis-cli
start_redis r

bad() { # WHAT EXPECTED CMD...
    what=$1 want=$2; shift 2
    rc=0; "$@" > "$T/out" 2> "$T/err" || rc=$?
    assert_eq "$rc" 2 "$what: exit code ($(head -c 300 "$T/err"))"
    grep -qF -- "$want" "$T/err" || fail "$what: the message does not say '$want': $(cat "$T/err")"
}
# AddressSanitizer reserves terabytes of shadow memory at start, so the sanitized pass runs
# without the limit: its allocator aborts on a request this size, which fails the check too
case ${PAIRBENCH_BUILD:-build} in *san*) VLIMIT=unlimited ;; *) VLIMIT=1500000 ;; esac
bad "10M x 64 MiB" "[0]: 10000000 commands of up to 67108904 bytes each" \
    sh -c 'ulimit -v "$2"; exec "$0" redis --port "$1" --payload 67108864 --duration 0.1 \
        --setup "[{\"command\": \"SET k__i__ __data__\", \"count\": 10000000}]"' "$DRIVER" "$REDIS_PORT" "$VLIMIT"
grep -q "at most 256 MiB (the driver's cap on a connection's first bytes)" "$T/err" || fail "the cap is not stated: $(cat "$T/err")"
bad "300 x 1 MiB" "300 commands of up to 1048611 bytes each (314583300 bytes): more than the 268431360 bytes" \
    "$DRIVER" redis --port "$REDIS_PORT" --payload 1048576 --duration 0.1 \
    --setup '[{"command": "SET k__i__ __data__", "count": 300}]'
grep -q "the cap does not grow with --payload" "$T/err" || fail "no hint at the cap: $(cat "$T/err")"

printf 'SET a 1\nSET b 2\0SET c 3\nSET d 4\n' > "$T/nul.txt"
bad "NUL byte" "file '$T/nul.txt': line 2: byte 0x00 at column 8" \
    "$DRIVER" redis --port "$REDIS_PORT" --duration 0.1 --setup "\"$T/nul.txt\""
printf 'SET a 1\nSET b \001\n' > "$T/ctl.txt"
bad "control byte" "line 2: byte 0x01 at column 7" \
    "$DRIVER" redis --port "$REDIS_PORT" --duration 0.1 --setup "\"$T/ctl.txt\""
printf 'SET a 1\nSET b \377\376\n' > "$T/bin.txt"
bad "binary byte" "line 2: byte 0xff at column 7: an inline setup file is text, and this byte is no part of a UTF-8" \
    "$DRIVER" redis --port "$REDIS_PORT" --duration 0.1 --setup "\"$T/bin.txt\""
printf 'SET a 1\nSET s \355\240\200\n' > "$T/sur.txt"
bad "UTF-8 surrogate" "line 2: byte 0xed at column 7" \
    "$DRIVER" redis --port "$REDIS_PORT" --duration 0.1 --setup "\"$T/sur.txt\""
write_grid "$T/grid.json" g "\"protocol\": \"redis\", \"connections\": 1, \"setup\": \"$T/nul.txt\""
write_spec "$T/spec.json" redis "$T/grid.json" '"runs": 1, "warmup": 0, "duration": 0.1' \
    a "redis-server --port {port} --save '' --appendonly no"
bad "compare, NUL byte" "line 2: byte 0x00 at column 8" "$COMPARE" run --spec "$T/spec.json" --out "$T/o"
[ ! -e "$T/o/runs.jsonl" ] || fail "compare ran with a bad setup file"

# compare sizes a setup within the cap without building it (5,000,000 commands: 170 MB
# built, "out of memory" under a 120 MB address-space limit, before), then a driver that
# refuses it at the real --payload is quoted from the start of its message (the flag and the
# count), not from its last 300 bytes
case ${PAIRBENCH_BUILD:-build} in *san*) CLIMIT=unlimited ;; *) CLIMIT=120000 ;; esac
write_grid "$T/big.json" g '"protocol": "redis", "connections": 1, "payload": 1048576,
    "setup": [{"command": "SET k__i__ __data__", "count": 300}]'
write_grid "$T/many.json" g '"protocol": "redis", "connections": 1,
    "setup": [{"command": "SET k__i__ __data__", "count": 5000000}]'
write_spec "$T/many.spec.json" redis "$T/many.json" '"runs": 1, "warmup": 0, "duration": 0.1' \
    a "redis-server --port {port} --save '' --appendonly no"
sed 's|"name": "a",|"name": "a", "driver": "/nonexistent/driver",|' "$T/many.spec.json" > "$T/many2.spec.json"
rc=0
sh -c 'ulimit -v "$1"; exec "$0" run --spec "$2" --out "$3"' "$COMPARE" "$CLIMIT" "$T/many2.spec.json" "$T/m" \
    > /dev/null 2> "$T/err" || rc=$?
assert_eq "$rc" 2 "compare, 5M setup commands under a 120 MB limit: exit code ($(cat "$T/err"))"
grep -q "cannot find program '/nonexistent/driver'" "$T/err" ||
    fail "compare did not get past the setup check to the driver check: $(cat "$T/err")"
write_spec "$T/big.spec.json" redis "$T/big.json" '"runs": 1, "warmup": 0, "duration": 0.1' \
    a "redis-server --port {port} --save '' --appendonly no"
rc=0
"$COMPARE" run --spec "$T/big.spec.json" --out "$T/b" > /dev/null 2> "$T/err" || rc=$?
assert_eq "$rc" 3 "compare, 300 x 1 MiB: exit code ($(tail -n 3 "$T/err"))"
grep -q "run failed: .*exit 2: driver: redis: --setup '.*': \[0\]: 300 commands of up to 1048611 bytes" "$T/err" ||
    fail "the driver's refusal is not quoted from its start: $(grep 'run failed' "$T/err")"

# a setup command that blocks (BLPOP on a key nobody pushes) is named as the setup's
printf 'SET a 1\nBLPOP nokey 7\n' > "$T/block.txt"
rc=0
"$DRIVER" redis --port "$REDIS_PORT" --timeout 1 --duration 0.1 --warmup 0 --setup "\"$T/block.txt\"" \
    > /dev/null 2> "$T/err" || rc=$?
assert_eq "$rc" 3 "a blocking setup command: exit code"
grep -qF "(handshake and --setup not answered: a setup command may block, e.g. BLPOP" "$T/err" ||
    fail "the timeout does not name the setup: $(cat "$T/err")"

# within the limits: every command of the file arrives (CRLF line ends and tabs are text)
printf 'SET a 1\r\nSET\tb 2\nSET c 3\nSET u \303\251\344\270\255\360\237\230\200\n' > "$T/good.txt"
"$DRIVER" redis --port "$REDIS_PORT" --duration 0.1 --warmup 0 --setup "\"$T/good.txt\"" > "$T/r.json" 2> "$T/err" ||
    fail "a good setup file: $(cat "$T/err")"
assert_eq "$(json_get "$T/r.json" 'this.setup.commands')" 4 "setup commands sent"
assert_eq "$(redis-cli -p "$REDIS_PORT" mget a b c | tr '\n' ' ')" "1 2 3 " "keys set by the setup"
assert_eq "$(redis-cli -p "$REDIS_PORT" strlen u)" 9 "the UTF-8 value set by the setup (bytes)"
echo ok
