#!/bin/sh
# Benchmark, not a test: driver http --http-version 2 vs h2load (nghttp2), side by side in one
# run, the order alternating between rounds (A B, B A, ...) so slow drift on a shared machine
# cancels. One client thread each, 4 KiB bodies, at 4 connections x 16 streams and 16 x 16:
#   1. against nginx (one worker) serving a static 4 KiB file over TLS with ALPN h2;
#   2. against `driver serve http` (one worker) over cleartext h2 with prior knowledge (h2c).
# Per round: each client's throughput and its CPU per request (user + sys seconds of the
# client process from wait4, over its requests); the ratios driver / h2load.
# Targets (issue 57): throughput >= 1.0x h2load, client CPU per request <= 1.0x.
# Usage: sh bench/h2.sh   (env: ROUNDS=3 SECS=2 SHAPES="4x16 16x16")
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/bench/host.sh"
DRIVER=${BIN_DRIVER:-$TOP/bin/driver}
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-2}
SHAPES=${SHAPES:-"4x16 16x16"}
for p in nginx h2load node python3 openssl; do
    command -v "$p" >/dev/null 2>&1 || { echo "bench: '$p' not found (run ci/install-deps.sh --test)" >&2; exit 2; }
done
[ -x "$DRIVER" ] || { echo "bench: '$DRIVER' not built (run make)" >&2; exit 2; }
T=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-bench.XXXXXX")
PIDS=""
cleanup() {
    for p in $PIDS; do kill "$p" 2>/dev/null || true; done
    for p in $PIDS; do wait "$p" 2>/dev/null || true; done
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cp "$DRIVER" "$T/driver" && DRIVER=$T/driver

# cpu_run OUTFILE cmd...: runs cmd with stdout to OUTFILE; prints its user+sys seconds (wait4)
cpu_run() {
    python3 - "$@" <<'PY'
import os, subprocess, sys
with open(sys.argv[1], "wb") as f:
    p = subprocess.Popen(sys.argv[2:], stdout=f, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
rc = os.waitstatus_to_exitcode(status)
print("%.6f" % (ru.ru_utime + ru.ru_stime))
sys.exit(rc)
PY
}
median() { sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else printf "%.4f\n", (v[NR/2]+v[NR/2+1])/2}'; }
js() { node -e "const d=JSON.parse(require('fs').readFileSync(process.argv[1],'utf8'));console.log($2)" "$1"; }

sh "$TOP/tests/certs.sh" "$T/pki" > /dev/null
PORT=$(free_port)
HPORT=$(free_port)
mkdir -p "$T/www" "$T/tmp"
head -c 4096 /dev/urandom > "$T/www/file.bin"
cat > "$T/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $T/nginx.pid;
error_log $T/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $T/tmp/body;
    proxy_temp_path $T/tmp/proxy;
    fastcgi_temp_path $T/tmp/fastcgi;
    uwsgi_temp_path $T/tmp/uwsgi;
    scgi_temp_path $T/tmp/scgi;
    keepalive_requests 100000000;
    http2_max_concurrent_streams 128;
    ssl_certificate $T/pki/server.pem;
    ssl_certificate_key $T/pki/server.key;
    server { listen 127.0.0.1:$PORT ssl http2; root $T/www; }
}
EOF
nginx -p "$T" -c "$T/nginx.conf" -e "$T/error.log" > "$T/nginx.out" 2>&1 &
PIDS="$PIDS $!"
"$DRIVER" serve http --port "$HPORT" --workers 1 --payload 4096 > /dev/null 2>&1 &
PIDS="$PIDS $!"
for p in "$PORT" "$HPORT"; do
    wait_port "$p" || { echo "bench: nothing listening on 127.0.0.1:$p" >&2; exit 3; }
done

# run_driver TARGET CONNS STREAMS / run_h2load TARGET CONNS STREAMS: set tput and us (CPU
# microseconds per request)
run_driver() {
    if [ "$1" = nginx ]; then
        tgt="--port $PORT --transport tls --cacert $T/pki/ca.pem --path /file.bin"
    else
        tgt="--port $HPORT --payload 4096"
    fi
    cpu=$(cpu_run "$T/d.json" "$DRIVER" http --http-version 2 $tgt --connections "$2" \
        --workers 1 --window "$3" --warmup 0 --duration "$SECS")
    ops=$(js "$T/d.json" 'd.ops')
    errs=$(js "$T/d.json" 'JSON.stringify(d.errors)')
    case "$errs" in *'"io":0,"protocol":0,"verify":0,"timeout":0}'*) ;; *) echo "bench: driver errors: $errs" >&2 ;; esac
    tput=$(js "$T/d.json" 'd.throughput.toFixed(0)')
    us=$(echo "$cpu $ops" | awk '{printf "%.3f", $1 / $2 * 1e6}')
}
run_h2load() {
    if [ "$1" = nginx ]; then url="https://127.0.0.1:$PORT/file.bin"; else url="http://127.0.0.1:$HPORT/"; fi
    cpu=$(cpu_run "$T/h.txt" h2load -t 1 -c "$2" -m "$3" -D "$SECS" "$url")
    ok=$(awk '/^requests:/ {print $8}' "$T/h.txt")
    bad=$(awk '/^requests:/ {print $10 + $12 + $14}' "$T/h.txt")
    [ "$bad" = 0 ] || { echo "bench: h2load errors:" >&2; grep '^requests:' "$T/h.txt" >&2; }
    tput=$(awk '/^finished in/ {print $4}' "$T/h.txt" | awk '{printf "%.0f", $1}')
    us=$(echo "$cpu $ok" | awk '{printf "%.3f", $1 / $2 * 1e6}')
}

host_line
echo "load: $(uptime | sed 's/.*load average: //') (1, 5, 15 min; the machine may be shared)"
for target in nginx serve; do
    for shape in $SHAPES; do
        c=${shape%x*}; m=${shape#*x}
        if [ $target = nginx ]; then what="nginx h2 over TLS"; else what="driver serve http, h2c"; fi
        echo "== $what, 4 KiB, $c connections x $m streams, 1 thread, ${SECS}s x $ROUNDS rounds"
        printf '%-6s %-16s %12s %12s %10s %10s %7s %8s\n' round order "driver req/s" "h2load req/s" "drv us/req" "h2l us/req" tput cpu/req
        : > "$T/tput.txt"; : > "$T/cpu.txt"
        r=1
        while [ $r -le "$ROUNDS" ]; do
            if [ $((r % 2)) -eq 1 ]; then order="driver,h2load"; first=run_driver; second=run_h2load
            else order="h2load,driver"; first=run_h2load; second=run_driver; fi
            $first $target "$c" "$m"; eval "${first#run_}_t=\$tput ${first#run_}_u=\$us"
            $second $target "$c" "$m"; eval "${second#run_}_t=\$tput ${second#run_}_u=\$us"
            tr=$(echo "$driver_t $h2load_t" | awk '{printf "%.3f", $1 / $2}')
            cr=$(echo "$driver_u $h2load_u" | awk '{printf "%.3f", $1 / $2}')
            echo "$tr" >> "$T/tput.txt"; echo "$cr" >> "$T/cpu.txt"
            printf '%-6s %-16s %12s %12s %10s %10s %7s %8s\n' "$r" "$order" "$driver_t" "$h2load_t" "$driver_u" "$h2load_u" "$tr" "$cr"
            r=$((r + 1))
        done
        echo "driver/h2load throughput ratio: median $(median < "$T/tput.txt") [$(sort -g "$T/tput.txt" | head -n1)-$(sort -g "$T/tput.txt" | tail -n1)]  (target >= 1.0)"
        echo "driver/h2load CPU per request:  median $(median < "$T/cpu.txt") [$(sort -g "$T/cpu.txt" | head -n1)-$(sort -g "$T/cpu.txt" | tail -n1)]  (target <= 1.0)"
    done
done
