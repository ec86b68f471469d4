#!/bin/sh
# Benchmark, not a test: prints side-by-side ratios measured in one run, alternating order
# between rounds (A B, B A, ...) so slow drift on a shared machine cancels.
#   1. driver http vs wrk against the same nginx serving a static 4 KiB file: 16 connections,
#      window 1, the same thread count; throughput ratio and client CPU per request ratio
#      (whole-process CPU from getrusage of each client, no warm-up in either).
#      Targets: throughput >= 1.0x wrk, CPU per request <= 1.0x wrk (issue 8; issue 4 set 1.2x).
#      Then the pipelined rates against the same nginx (reported, no target): the driver at
#      window 16 (a new request whenever a response is in, 16 in flight per connection) and
#      at pipeline 16 (16 requests written together, the next 16 once all are answered), and
#      wrk with a Lua script that writes 16 requests at once (wrk's way of pipelining: the
#      same shape as pipeline 16).
#   2. WebSocket echo rate / TCP echo rate, reference servers (driver serve ws / tcp), the
#      same payload, window, connections and threads. Target: >= 0.8.
# Usage: sh bench/http-ws.sh   (env: ROUNDS=5 SECS=2 THREADS=2 WS_PAYLOADS="64 4096"
#        KEEPALIVE_REQUESTS=N: nginx's keep-alive limit, default nginx's own, 1000)
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/bench/host.sh"
DRIVER=${BIN_DRIVER:-$TOP/bin/driver}
ROUNDS=${ROUNDS:-5}
SECS=${SECS:-2}
THREADS=${THREADS:-2}
case $SECS in
'' | *[!0-9]* | 0) echo "bench/http-ws.sh: SECS '$SECS': expected whole seconds of 1 or more (wrk's -d takes whole seconds)" >&2; exit 2 ;;
esac
WS_PAYLOADS=${WS_PAYLOADS:-"64 4096"}
# nginx as shipped closes a keep-alive connection after 1000 requests (keepalive_requests, the
# default since 1.19.10): both clients reopen it, as users' runs do. KEEPALIVE_REQUESTS=N
# raises the limit (the figures before the driver reopened connections used 100000000).
KEEPALIVE_LINE=
[ -n "${KEEPALIVE_REQUESTS:-}" ] && KEEPALIVE_LINE="keepalive_requests $KEEPALIVE_REQUESTS;"
for p in nginx wrk node python3; do
    command -v "$p" >/dev/null 2>&1 || { echo "bench: '$p' not found (run ci/install-deps.sh)" >&2; exit 2; }
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

# cpu_run OUTFILE cmd...: runs cmd with stdout to OUTFILE; prints the child's user+sys seconds
# (its own rusage from wait4: RUSAGE_CHILDREN would also count what the python3 process
# inherited across exec, e.g. a pyenv shim's children, 40-70 ms)
cpu_run() {
    python3 - "$@" <<'PY'
import os, subprocess, sys
with open(sys.argv[1], "wb") as f:
    p = subprocess.Popen(sys.argv[2:], stdout=f)
    _, status, ru = os.wait4(p.pid, 0)
rc = os.waitstatus_to_exitcode(status)
print("%.6f" % (ru.ru_utime + ru.ru_stime))
sys.exit(rc)
PY
}
# median of the numbers on stdin
median() { sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else printf "%.4f\n", (v[NR/2]+v[NR/2+1])/2}'; }
js() { node -e "const d=JSON.parse(require('fs').readFileSync(process.argv[1],'utf8'));console.log($2)" "$1"; }

# ---- 1. driver http vs wrk against nginx ----
PORT=$(free_port)
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
    $KEEPALIVE_LINE
    server { listen 127.0.0.1:$PORT; root $T/www; }
}
EOF
nginx -p "$T" -c "$T/nginx.conf" -e "$T/error.log" > "$T/nginx.out" 2>&1 &
PIDS="$PIDS $!"
wait_port "$PORT" || { echo "bench: nothing listening on 127.0.0.1:$PORT" >&2; exit 3; }
URL="http://127.0.0.1:$PORT/file.bin"

host_line
echo "== driver http vs wrk: nginx static 4 KiB, 16 connections, window 1, $THREADS threads, ${SECS}s x $ROUNDS rounds"
printf '%-6s %-12s %14s %14s %12s %12s %8s %8s %18s\n' round order "driver req/s" "wrk req/s" "drv us/req" "wrk us/req" tput cpu/req "nginx us/req d/w"
NGX=${PIDS##* }
tck=$(getconf CLK_TCK)
# nginx's own CPU seconds so far (it runs as one process: master_process off)
ngx_cpu() { read -r line < "/proc/$NGX/stat"; set -- ${line#*) }; echo "${12} ${13}" | awk -v t="$tck" '{printf "%.4f", ($1 + $2) / t}'; }
run_driver() {
    n0=$(ngx_cpu)
    cpu=$(cpu_run "$T/d.json" "$DRIVER" http --port "$PORT" --path /file.bin --connections 16 \
        --workers "$THREADS" --window 1 --warmup 0 --duration "$SECS")
    d_tput=$(js "$T/d.json" 'd.throughput')
    d_ops=$(js "$T/d.json" 'd.ops + " " + JSON.stringify(d.errors)')
    d_cpu=$(echo "$cpu ${d_ops%% *}" | awk '{printf "%.3f", $1 / $2 * 1e6}')
    d_ngx=$(echo "$n0 $(ngx_cpu) ${d_ops%% *}" | awk '{printf "%.3f", ($2 - $1) / $3 * 1e6}')
}
run_wrk() {
    n0=$(ngx_cpu)
    cpu=$(cpu_run "$T/w.txt" wrk -t "$THREADS" -c 16 -d "${SECS}s" "$URL")
    w_tput=$(awk '/^Requests\/sec:/ {print $2}' "$T/w.txt")
    w_req=$(awk '/requests in/ {print $1}' "$T/w.txt")
    if grep -Eq 'Non-2xx|Socket errors' "$T/w.txt"; then echo "bench: wrk reported errors" >&2; cat "$T/w.txt" >&2; fi
    w_cpu=$(echo "$cpu $w_req" | awk '{printf "%.3f", $1 / $2 * 1e6}')
    w_ngx=$(echo "$n0 $(ngx_cpu) $w_req" | awk '{printf "%.3f", ($2 - $1) / $3 * 1e6}')
}
: > "$T/tput.txt"; : > "$T/cpu.txt"
r=1
while [ $r -le "$ROUNDS" ]; do
    if [ $((r % 2)) -eq 1 ]; then order="driver,wrk"; run_driver; run_wrk
    else order="wrk,driver"; run_wrk; run_driver; fi
    tr=$(echo "$d_tput $w_tput" | awk '{printf "%.3f", $1 / $2}')
    cr=$(echo "$d_cpu $w_cpu" | awk '{printf "%.3f", $1 / $2}')
    echo "$tr" >> "$T/tput.txt"; echo "$cr" >> "$T/cpu.txt"
    printf '%-6s %-12s %14.0f %14.0f %12s %12s %8s %8s %9s/%-8s\n' "$r" "$order" "$d_tput" "$w_tput" "$d_cpu" "$w_cpu" "$tr" "$cr" "$d_ngx" "$w_ngx"
    case "$d_ops" in *'"io":0,"protocol":0,"verify":0,"timeout":0}'*) ;; *) echo "bench: driver errors: $d_ops" >&2 ;; esac
    r=$((r + 1))
done
echo "driver/wrk throughput ratio: median $(median < "$T/tput.txt") [$(sort -g "$T/tput.txt" | head -n1)-$(sort -g "$T/tput.txt" | tail -n1)]  (target >= 1.0)"
echo "driver/wrk CPU per request:  median $(median < "$T/cpu.txt") [$(sort -g "$T/cpu.txt" | head -n1)-$(sort -g "$T/cpu.txt" | tail -n1)]  (target <= 1.0)"

# ---- 1b. pipelined: driver window 16, driver pipeline 16, wrk pipelining 16 ----
echo
echo "== pipelined, nginx static 4 KiB, 16 connections, $THREADS threads, ${SECS}s x $ROUNDS rounds (req/s)"
cat > "$T/pipeline.lua" <<'LUA'
-- 16 GET requests in one buffer: wrk writes them together and counts each response
init = function(args)
    local reqs = {}
    for i = 1, 16 do reqs[i] = wrk.format("GET", "/file.bin") end
    batch = table.concat(reqs)
end
request = function() return batch end
LUA
: > "$T/pipe-window.txt"; : > "$T/pipe-pipeline.txt"; : > "$T/pipe-wrk.txt"
run_pipe() { # window|pipeline|wrk -> req/s
    case $1 in
    wrk) wrk -t "$THREADS" -c 16 -d "${SECS}s" -s "$T/pipeline.lua" "$URL" > "$T/wp.txt"
         grep -Eq 'Non-2xx|Socket errors' "$T/wp.txt" && { echo "bench: wrk reported errors" >&2; cat "$T/wp.txt" >&2; }
         awk '/^Requests\/sec:/ {print $2}' "$T/wp.txt" ;;
    *) if [ "$1" = window ]; then shape="--window 16"; else shape="--pipeline 16"; fi
       "$DRIVER" http --port "$PORT" --path /file.bin --connections 16 --workers "$THREADS" \
           $shape --warmup 0 --duration "$SECS" > "$T/dp.json"
       js "$T/dp.json" '(Object.values(d.errors).some(e => e) ? "errors " + JSON.stringify(d.errors) + " " : "") + d.throughput.toFixed(0)' ;;
    esac
}
r=1
while [ $r -le "$ROUNDS" ]; do
    order="window pipeline wrk"
    [ $((r % 2)) -eq 0 ] && order="wrk pipeline window"
    for k in $order; do eval "v_$k=\$(run_pipe $k)"; eval "echo \"\$v_$k\"" >> "$T/pipe-$k.txt"; done
    printf 'round %-3s driver window 16 %10s  driver pipeline 16 %10s  wrk pipeline 16 %10s\n' "$r" "$v_window" "$v_pipeline" "$v_wrk"
    r=$((r + 1))
done
for k in window pipeline wrk; do
    f="$T/pipe-$k.txt"
    echo "pipelined rate, $k: median $(median < "$f") [$(sort -g "$f" | head -n1)-$(sort -g "$f" | tail -n1)] req/s"
done

# ---- 2. WebSocket echo vs TCP echo against the reference servers ----
echo
echo "== WebSocket echo / TCP echo: reference servers, 16 connections, window 16, $THREADS threads, ${SECS}s x $ROUNDS rounds"
for pl in $WS_PAYLOADS; do
    # fresh servers per size: the TCP echo server's message size is its --payload
    WSP=$(free_port)
    TCPP=$(free_port)
    "$DRIVER" serve ws --port "$WSP" --workers "$THREADS" --payload "$pl" > /dev/null 2>&1 &
    wspid=$!
    "$DRIVER" serve tcp --port "$TCPP" --workers "$THREADS" --payload "$pl" > /dev/null 2>&1 &
    tcppid=$!
    PIDS="$PIDS $wspid $tcppid"
    for p in "$WSP" "$TCPP"; do
        wait_port "$p" || { echo "bench: nothing listening on 127.0.0.1:$p" >&2; exit 3; }
    done
    : > "$T/ws.txt"; : > "$T/wse.txt"
    r=1
    while [ $r -le "$ROUNDS" ]; do
        for p in ws tcp; do
            [ $((r % 2)) -eq 0 ] && { [ $p = ws ] && p=tcp || p=ws; }
            port=$WSP; [ $p = tcp ] && port=$TCPP
            "$DRIVER" "$p" --port "$port" --payload "$pl" --connections 16 --workers "$THREADS" \
                --window 16 --warmup 0.2 --duration "$SECS" > "$T/$p.json"
        done
        # throughput ratio, and the ratio of client throughput per CPU core (robust when the
        # machine is shared: a starved run has low throughput but also low CPU)
        ratio=$(node -e 'const f=require("fs");const a=JSON.parse(f.readFileSync(process.argv[1])),b=JSON.parse(f.readFileSync(process.argv[2]));
            const e=(d)=>d.throughput/(d.cpu.percent/100);
            console.log([(a.throughput/b.throughput).toFixed(3),(e(a)/e(b)).toFixed(3),a.throughput.toFixed(0),b.throughput.toFixed(0)].join(" "))' "$T/ws.json" "$T/tcp.json")
        set -- $ratio
        echo "$1" >> "$T/ws.txt"; echo "$2" >> "$T/wse.txt"
        printf 'payload %-6s round %-3s ws %9s msg/s  tcp %9s msg/s  rate ratio %s  per-CPU ratio %s\n' "$pl" "$r" "$3" "$4" "$1" "$2"
        r=$((r + 1))
    done
    kill "$wspid" "$tcppid" 2>/dev/null || true
    wait "$wspid" "$tcppid" 2>/dev/null || true
    echo "ws/tcp echo rate, payload $pl: median $(median < "$T/ws.txt") [$(sort -g "$T/ws.txt" | head -n1)-$(sort -g "$T/ws.txt" | tail -n1)]  (target >= 0.8)"
    echo "ws/tcp echo rate per client CPU core, payload $pl: median $(median < "$T/wse.txt") [$(sort -g "$T/wse.txt" | head -n1)-$(sort -g "$T/wse.txt" | tail -n1)]"
done
