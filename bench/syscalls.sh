#!/bin/sh
# Benchmark (not a test): system calls per batch of the driver, counted with strace, for
# Redis ECHO at pipeline 16, window 1, one connection (issue 8 target: <= 2.5). Two runs that
# differ only in --requests; the difference of their syscall totals divided by the difference
# of their batch counts cancels the fixed cost of start-up, connect and exit.
# Usage: sh bench/syscalls.sh [BATCHES]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/host.sh"
driver=${BIN_DRIVER:-$top/bin/driver}
batches=${1:-5000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-bench.XXXXXX")
srv=""
cleanup() { [ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
for p in strace redis-server redis-cli node; do
    command -v $p >/dev/null 2>&1 || { echo "bench: '$p' not found" >&2; exit 2; }
done
port=$(free_port)
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" > "$tmp/srv.log" 2>&1 &
srv=$!
i=0; until redis-cli -p "$port" PING > /dev/null 2>&1; do i=$((i + 1)); [ $i -lt 100 ] || exit 3; sleep 0.05; done

count() { # REQUESTS -> total syscalls of the driver (all threads)
    strace -f -c -o "$tmp/strace.txt" "$driver" redis --port "$port" --pipeline 16 --window 1 $extra \
        --payload 64 --requests "$1" --warmup 0 > "$tmp/out.json"
    awk '$NF == "total" {print $4 + 0}' "$tmp/strace.txt" # % seconds usecs/call calls [errors]
}
for shape in "1 1" "4 1" "4 4"; do
    set -- $shape
    extra="--connections $1 --workers $2"
    small=$(count 160)
    large=$(count $((batches * 16)))
    awk -v s="$small" -v l="$large" -v b="$batches" -v c="$1" -v w="$2" 'BEGIN {
        per = (l - s) / (b - 10)
        printf "redis ECHO 64 B, pipeline 16, window 1, %d connection(s) on %d worker(s): %.2f syscalls per batch (target <= 2.5)\n", c, w, per
    }'
    [ "$1" = 4 ] && [ "$2" = 1 ] && { echo "breakdown:"; sed -n '3,8p' "$tmp/strace.txt"; }
done
