#!/bin/sh
# pairbench-test: untimed
# A worker with one plain TCP connection waits for its replies in a blocking read instead of
# epoll_wait (loop_solo_read): two system calls per round trip, and every engine bound still
# holds on that path: a lost server is counted and reconnected, a slow one ends at the drain
# deadline, one that never answers ends at --timeout.
. "$(dirname "$0")/../lib.sh"
need node
need strace

port=$(free_port)
start_bg serve "$DRIVER" serve tcp --port "$port" --payload 64
spid=$LAST_PID
wait_port "$port"

# system calls per batch: the difference of two runs cancels start-up and exit
# (LeakSanitizer cannot run under ptrace: off for these runs of a sanitized driver)
count() { # REQUESTS -> the driver's system calls (all threads)
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
        strace -f -c -o "$T/strace.txt" "$DRIVER" tcp --port "$port" --payload 64 --connections 1 \
        --window 1 --warmup 0 --requests "$1" > "$T/count.json"
    assert_eq "$(json_get "$T/count.json" "this.ops === $1 && this.errors.io === 0")" true \
        "exact --requests $1 on the blocking-read path"
    awk '$NF == "total" {print $4 + 0}' "$T/strace.txt" # % seconds usecs/call calls [errors]
}
small=$(count 200)
large=$(count 2200)
per=$(awk -v s="$small" -v l="$large" 'BEGIN {printf "%.2f", (l - s) / 2000}')
awk -v p="$per" 'BEGIN {exit !(p <= 2.5)}' || fail "system calls per round trip: $per, expected <= 2.5"
echo "one connection: $per system calls per round trip"

# the server dies mid-run: io/connect errors counted, reconnect attempts, bounded; the
# connection was not held, so the run fails (exit 3) with its result printed
start_bg client "$DRIVER" tcp --port "$port" --connections 1 --window 1 --warmup 0 \
    --duration 1.2 --timeout 1
cpid=$LAST_PID
sleep 0.4
kill -9 "$spid"
i=0
while kill -0 "$cpid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$cpid" 2>/dev/null && fail "driver still running 10s after its window"
set +e; wait "$cpid"; rc=$?; set -e
assert_eq "$rc" 3 "driver exit code after losing the server ($(cat "$T/client.err"))"
assert_eq "$(json_get "$T/client.out" 'this.ops > 0 && this.errors.io + this.errors.connect > 0 && this.status === "failed"')" \
    true "errors counted: $(json_get "$T/client.out" 'JSON.stringify(this.errors)')"

# a reply slower than the drain bound: the batch in flight at the end is a timeout error
# (which fails the run: exit 3 exactly when one was counted)
rc=0
"$DRIVER" tcp --serve --delay-us 300000 --duration 1 --warmup 0 --timeout 0.05 \
    --connections 1 > "$T/slow.json" || rc=$?
assert_eq "$rc" "$(json_get "$T/slow.json" 'this.errors.timeout > 0 ? 3 : 0')" "exit code of the slow run"
# replies come 0.3 s apart, so a 1 s window holds at most 3; a 4th would mean the drain waited
# for the reply in flight past its 0.05 s bound. One connection, window 1: at most one timeout.
assert_eq "$(json_get "$T/slow.json" 'this.ops >= 1 && this.ops <= 3 && this.errors.io === 0 && this.errors.timeout <= 1')" \
    true "drain bound kept: $(json_get "$T/slow.json" 'JSON.stringify([this.ops, this.errors])')"

# a server that never answers in time: exit 3 at --timeout, before its 3 s reply: the one
# request is a timeout and nothing was answered (had the read waited for the reply, it would
# count one op); a read that never returns is killed (exit 137) rather than hang the suite
rc=0
timeout -s KILL 60 "$DRIVER" tcp --serve --delay-us 3000000 --requests 10 --warmup 0 --timeout 0.3 \
    --connections 1 > "$T/silent.json" 2> "$T/silent.err" || rc=$?
assert_eq "$rc" 3 "exit code against a silent server ($(cat "$T/silent.err"))"
assert_eq "$(json_get "$T/silent.json" '[this.ops, this.errors.timeout, this.errors.io].join(" ")')" "0 1 0" \
    "ops, timeouts and I/O errors against a silent server"
echo "ok: the one-connection blocking read keeps the engine's bounds"
