#!/bin/sh
# Benchmark (not a test): the driver's peak RSS against the bytes it keeps in flight
# (issue 8 target: <= 8 MiB + bytes in flight), for a few shapes against the reference TCP
# echo server running in its own process. Bytes in flight = connections x window x pipeline
# x payload, counted once for what is sent and once for what comes back.
# Usage: sh bench/rss.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/host.sh"
driver=${BIN_DRIVER:-$top/bin/driver}
port=$(free_port)
"$driver" serve tcp --port "$port" --workers 2 > /dev/null 2>&1 &
srv=$!
trap 'kill $srv 2>/dev/null' EXIT
wait_port "$port" || { echo "bench: the reference server did not listen on $port" >&2; exit 3; }
printf '%-36s %12s %12s %12s  %s\n' configuration "in flight" "peak RSS" "limit" verdict
for shape in "1 1 1 64" "4 1 1 1024" "16 16 1 64" "4 4 16 1024" "50 1 1 64" "4 4 64 16384"; do
    set -- $shape
    c=$1 w=$2 p=$3 size=$4
    json=$("$driver" tcp --port "$port" --connections "$c" --workers "$([ "$c" -gt 1 ] && echo 2 || echo 1)" --window "$w" \
        --pipeline "$p" --payload "$size" --warmup 0.1 --duration 0.5)
    rss=$(printf '%s' "$json" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).rss_peak_kib))')
    inflight=$((c * w * p * size * 2 / 1024))
    limit=$((8192 + inflight))
    v=ok; [ "$rss" -le "$limit" ] || v=OVER
    printf '%-36s %8s KiB %8s KiB %8s KiB  %s\n' "c$c window$w pipeline$p $size B" "$inflight" "$rss" "$limit" "$v"
done
