#!/bin/sh
# Driver vs redis-benchmark over TLS on one redis-server (loopback, test PKI made on the fly;
# the driver verifies the chain and the IP SAN, redis-benchmark the chain). Same work for
# both: N requests of SET and GET (64-byte values), C connections, pipeline P
# (redis-benchmark -P, driver --pipeline with one batch in flight). Rounds alternate the
# order (A B, B A, ...) so slow drift cancels; each line prints per-round ratios
# driver / redis-benchmark of
#   throughput (higher is better for the driver), and
#   client CPU per command (whole process user+sys / N; lower is better for the driver);
# and redis-server's own CPU per command under each (its /proc/PID/stat around each run).
# Usage: sh bench/redis-tls.sh        env: ROUNDS=3 N=200000 C=4 P=16 REDIS=redis-server
#   DRIVER_ARGS (e.g. "--busy-poll-us 50") is added to the measured driver commands.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/host.sh"
DRIVER=${BIN_DRIVER:-$top/bin/driver}
ROUNDS=${ROUNDS:-3}
N=${N:-200000}
C=${C:-4}
P=${P:-16}
REDIS=${REDIS:-redis-server}
for p in "$REDIS" redis-benchmark openssl python3; do
    command -v "$p" >/dev/null 2>&1 || { echo "redis-tls.sh: '$p' not found" >&2; exit 2; }
done
[ -x "$DRIVER" ] || { echo "redis-tls.sh: no driver at '$DRIVER' (run make)" >&2; exit 2; }

T=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-bench.XXXXXX")
srv=""
cleanup() {
    [ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

sh "$top/tests/certs.sh" "$T/pki"
port=$(free_port)
"$REDIS" --port 0 --tls-port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$T" \
    --tls-cert-file "$T/pki/server.pem" --tls-key-file "$T/pki/server.key" \
    --tls-ca-cert-file "$T/pki/ca.pem" --tls-auth-clients no > "$T/redis.log" 2>&1 &
srv=$!
i=0
until redis-cli --tls --cacert "$T/pki/ca.pem" -p "$port" ping > /dev/null 2>&1; do
    i=$((i + 1))
    [ $i -lt 100 ] || { echo "redis-tls.sh: redis did not start" >&2; exit 3; }
    sleep 0.1
done

# cpu CMD...: runs CMD (stdout to $T/out), prints its user+sys CPU seconds: that child's own
# rusage from wait4, not RUSAGE_CHILDREN, which also holds whatever the python3 process
# inherited across exec (a pyenv shim's children: 40-70 ms, as much as a whole run).
cpu() {
    python3 -c '
import os, subprocess, sys
with open(sys.argv[1], "wb") as out:
    p = subprocess.Popen(sys.argv[2:], stdout=out)
    _, status, r = os.wait4(p.pid, 0)
rc = os.waitstatus_to_exitcode(status)
if rc != 0:
    sys.exit("command failed (exit %d): %s" % (rc, " ".join(sys.argv[2:])))
print("%.6f" % (r.ru_utime + r.ru_stime))' "$T/out" "$@"
}

# srv_cpu: redis-server's user+sys CPU seconds so far
srv_cpu() {
    python3 -c '
import os, sys
f = open("/proc/%s/stat" % sys.argv[1]).read().rsplit(")", 1)[1].split()
print((int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK"))' "$srv"
}

# GET reads key:__rand_int__, which both tools also SET, each with its own 64-byte value; the
# driver checks that GET returns its value (or nil), so each tool writes its own value first.
prep() { # tool cmd
    [ "$2" = GET ] || return 0
    if [ "$1" = driver ]; then
        "$DRIVER" redis --port "$port" --transport tls --cacert "$T/pki/ca.pem" --command SET \
            --payload 64 --warmup 0 --requests 1 > /dev/null
    else
        redis-benchmark --tls --cacert "$T/pki/ca.pem" -h 127.0.0.1 -p "$port" -d 64 -n 1 \
            -t set > /dev/null
    fi
}

run_driver() { # cmd -> "throughput cpu_per_op server_cpu_per_op"
    prep driver "$1"
    s0=$(srv_cpu)
    c=$(cpu "$DRIVER" redis --port "$port" --transport tls --cacert "$T/pki/ca.pem" \
        --command "$1" --connections "$C" --pipeline "$P" --payload 64 --warmup 0 \
        --requests "$N" ${DRIVER_ARGS:-})
    node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));
        console.log(d.throughput, process.argv[2] / d.ops, process.argv[3] / d.ops)' "$T/out" "$c" \
        "$(python3 -c "print($(srv_cpu) - $s0)")"
}

run_rb() { # cmd -> "throughput cpu_per_op server_cpu_per_op"
    prep rb "$(echo "$1" | tr 'a-z' 'A-Z')"
    s0=$(srv_cpu)
    c=$(cpu redis-benchmark --tls --cacert "$T/pki/ca.pem" -h 127.0.0.1 -p "$port" \
        -c "$C" -P "$P" -d 64 -n "$N" -t "$1" --csv)
    rps=$(grep -i "^\"$1\"" "$T/out" | cut -d, -f2 | tr -d '"')
    echo "$rps" "$(python3 -c "print($c / $N, ($(srv_cpu) - $s0) / $N)")"
}

host_line
echo "redis-tls: $REDIS $("$REDIS" --version | awk '{print $3}'), TLS, $C connections, pipeline $P, $N requests, $ROUNDS rounds"
for cmd in SET GET; do
    lc=$(echo "$cmd" | tr 'A-Z' 'a-z')
    tr_all=""; cpu_all=""
    r=1
    while [ $r -le "$ROUNDS" ]; do
        if [ $((r % 2)) = 1 ]; then
            d=$(run_driver "$cmd"); b=$(run_rb "$lc")
        else
            b=$(run_rb "$lc"); d=$(run_driver "$cmd")
        fi
        set -- $d $b
        tr_all="$tr_all $(python3 -c "print('%.3f' % ($1 / $4))")"
        cpu_all="$cpu_all $(python3 -c "print('%.3f' % ($2 / $5))")"
        printf '  %s round %d: driver %.0f/s %.2f us cpu/cmd, redis-benchmark %.0f/s %.2f us cpu/cmd; redis-server %.2f / %.2f us/cmd\n' \
            "$cmd" "$r" "$1" "$(python3 -c "print($2 * 1e6)")" "$4" "$(python3 -c "print($5 * 1e6)")" \
            "$(python3 -c "print($3 * 1e6)")" "$(python3 -c "print($6 * 1e6)")"
        r=$((r + 1))
    done
    med() { python3 -c 'import statistics,sys; v=[float(x) for x in sys.argv[1:]]; print("%.3f [%.3f-%.3f]" % (statistics.median(v), min(v), max(v)))' "$@"; }
    # shellcheck disable=SC2086
    echo "$cmd driver/redis-benchmark: throughput ratio $(med $tr_all), cpu per command ratio $(med $cpu_all)"
done
