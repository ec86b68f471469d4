#!/bin/sh
# pairbench-test: timed
# With a window of several batches per connection, the batches that start together (one read
# brought the replies of several) go out in one write: far fewer writes than batches. And
# every gathered byte still arrives in order: exact counts and verified replies over TCP,
# HTTP and WebSocket, with small batches (many per write) and with batches large enough that
# the gathered write is short (the rest waits for EPOLLOUT).
. "$(dirname "$0")/../lib.sh"
need node
need strace

# writes per batch, the difference of two runs (start-up, hello and exit cancel);
# LeakSanitizer cannot run under ptrace: off for these runs of a sanitized driver
writes() { # PROTO PORT REQUESTS -> sendto/write calls of the whole run
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
        strace -f -c -e trace=sendto,write -o "$T/strace.txt" "$DRIVER" "$1" --port "$2" \
        --payload 64 --connections 4 --window 16 --warmup 0 --requests "$3" > "$T/$1.json"
    assert_eq "$(json_get "$T/$1.json" "this.ops === $3 && Object.values(this.errors).every(e => e === 0)")" \
        true "$1: exact --requests $3, no errors: $(json_get "$T/$1.json" 'JSON.stringify(this.errors)')"
    awk '$NF == "total" {print $4 + 0}' "$T/strace.txt" # % seconds usecs/call calls [errors]
}

for proto in tcp http ws; do
    port=$(free_port)
    start_bg "serve-$proto" "$DRIVER" serve "$proto" --port "$port" --payload 64
    wait_port "$port"
    small=$(writes "$proto" "$port" 2000)
    large=$(writes "$proto" "$port" 22000)
    per=$(awk -v s="$small" -v l="$large" 'BEGIN {printf "%.3f", (l - s) / 20000}')
    echo "$proto 64 B, 4 connections, window 16: $per writes per batch"
    # one write per batch would read 1.0; the replies of a window come back in a few reads
    awk -v p="$per" 'BEGIN {exit !(p <= 0.5)}' ||
        fail "$proto: $per writes per batch at window 16, expected <= 0.5 (batches gathered)"
done

# batches of 16 KiB, window 8: the gathered write (up to 64 KiB) is often short and the
# rest goes out on EPOLLOUT; an echo that came back out of order would fail verification
port=$(free_port)
start_bg serve-big "$DRIVER" serve tcp --port "$port" --payload 16384
wait_port "$port"
"$DRIVER" tcp --port "$port" --payload 16384 --connections 4 --workers 2 --window 8 \
    --pipeline 2 --warmup 0 --requests 6000 > "$T/big.json" || fail "16 KiB run exited $?"
assert_eq "$(json_get "$T/big.json" 'this.ops === 6000 && Object.values(this.errors).every(e => e === 0)')" \
    true "16 KiB batches gathered: $(json_get "$T/big.json" 'JSON.stringify([this.ops, this.errors])')"
echo "ok: window batches gathered into one write, every reply verified"

# One worker, 8 connections, window 1: each connection's next request goes out as soon as its
# reply is read, before the next ready connection is read, so the server works on it while
# the client reads the rest (holding every request until all the turn's replies were read
# made both sides sleep in turn: 11-48% of the rate at 4 connections on a VM whose idle vCPUs
# halt; docs/results/driver.md, "The order of sends"). In the worker thread's
# system calls: every turn of the loop (from one epoll wait to the next) that read several
# replies sent a request between its first and its last read, except at the run's end (the
# last replies free no request: at most one turn per connection).
port=$(free_port)
start_bg serve-order "$DRIVER" serve tcp --port "$port" --payload 64 --workers 1
wait_port "$port"
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -f -e trace=epoll_wait,epoll_pwait2,recvfrom,sendto -o "$T/order.txt" "$DRIVER" tcp \
    --port "$port" --payload 64 --connections 8 --workers 1 --window 1 --warmup 0 \
    --requests 20000 > "$T/order.json"
assert_eq "$(json_get "$T/order.json" 'this.ops === 20000 && Object.values(this.errors).every(e => e === 0)')" \
    true "request after each reply: $(json_get "$T/order.json" 'JSON.stringify([this.ops, this.errors])')"
# the worker is the thread that waits on epoll most; a call strace splits across lines
# ("<unfinished ...>" then "<... NAME resumed>") counts once, at its start
set -- $(awk '
    function turn_end() { if (reads > 1) { multi++; if (!between) held++ } reads = 0; between = 0; sent = 0 }
    { pid = $1; line = $0; sub(/^[0-9]+ +/, "", line); name = line; sub(/\(.*/, "", name) }
    line ~ /^<\.\.\. / { next }
    NR == FNR { if (name ~ /^epoll/ && ++waits[pid] > best) { best = waits[pid]; w = pid }; next }
    pid != w { next }
    name ~ /^epoll/ { turn_end() }
    name == "recvfrom" { if (reads == 0) sent = 0; else if (sent) between = 1; reads++ }
    name == "sendto" { sent = 1 }
    END { turn_end(); print held + 0, multi + 0, best + 0 }' "$T/order.txt" "$T/order.txt")
echo "8 connections, one worker: $3 turns of the loop, $2 read several replies, $1 of them held every request until the last read"
[ "$2" -gt 0 ] || fail "no turn of the loop read more than one reply: nothing to check the order on"
[ "$1" -le 8 ] || fail "$1 turns held their requests until every reply was read (expected each sent right after its reply)"
echo "ok: each request sent as soon as its reply is read"
