#!/bin/sh
# Benchmark (not a test): redis-benchmark and pairbench's driver side by side against one
# redis-server, same configurations, alternating order, ROUNDS rounds. Both do exactly N
# commands (redis-benchmark -n N, driver --requests N --warmup 0) and both have their CPU
# measured the same way: user+sys of the exited child, read from its parent shell's
# /proc/PID/stat (cutime, cstime). Prints, per configuration, the medians and the ratios
# driver/redis-benchmark of throughput and of client CPU per command, the median [min-max] of
# the rounds' own throughput ratios (the driver also verifies every reply; redis-benchmark
# does not), and redis-server's own CPU per command under each client (its /proc/PID/stat
# before and after each run) with the share of a core it used: near 1.00 under both
# clients, the server sets the pace and the throughput ratio can only be parity.
# Usage: sh bench/redis.sh [ROUNDS]   env: BENCH_SCALE (default 1) multiplies N;
#   PIN="CLIENT_CPUS SERVER_CPUS" (e.g. "0 1"; the order of bench/sensitivity.sh's PIN and of
#   compare run's --pin-driver/--pin-server) pins each client and redis-server with taskset.
#   Unpinned, where the scheduler puts redis-server decides the server-bound rows (50
#   connections, pipeline 16) more than the client does: on a VM whose vCPUs run at
#   different speeds its CPU per command for SET at pipeline 16 moved 1.6-2.6 us run to run.
#   DRIVER_ARGS (e.g. "--busy-poll-us 50") is added to every driver command.
#   BENCH_ONLY (a grep -E pattern) runs only the configurations whose names match it
#   ("tmpl|set-64B-c50-r100000-P16|get-64B-c50-r100000-P16": templates beside built-ins).
#   BENCH_TMPL=1 runs instead the driver's built-in SET and GET beside the same commands
#   written as templates (50 connections, pipeline 16), the two adjacent in every round with
#   the order alternating, and prints template / built-in of throughput and of the driver's
#   CPU per command, with the rounds' own ratios (issue 36's target: within 5%).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/host.sh"
driver=${BIN_DRIVER:-$top/bin/driver}
rounds=${1:-3}
scale=${BENCH_SCALE:-1}
spin="" cpin="" pinned=none
if [ -n "${PIN:-}" ]; then
    [ "${PIN#* }" != "$PIN" ] ||
        { echo "bench: PIN '$PIN': expected \"CLIENT_CPUS SERVER_CPUS\" (\"0 1\")" >&2; exit 2; }
    command -v taskset >/dev/null 2>&1 ||
        { echo "bench: PIN needs taskset (util-linux)" >&2; exit 2; }
    cpin="taskset -c ${PIN%% *}" spin="taskset -c ${PIN#* }"
    pinned="clients on CPU ${PIN%% *}, redis-server on ${PIN#* }"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-bench.XXXXXX")
srv=""
cleanup() {
    [ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for p in redis-server redis-benchmark redis-cli node; do
    command -v $p >/dev/null 2>&1 || { echo "bench: '$p' not found" >&2; exit 2; }
done
[ -x "$driver" ] || { echo "bench: driver '$driver' not built (run make)" >&2; exit 2; }

port=$(free_port)
$spin redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" \
    > "$tmp/server.log" 2>&1 &
srv=$!
i=0
until redis-cli -p "$port" PING >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -lt 100 ] || { echo "bench: redis-server did not start" >&2; exit 3; }
    sleep 0.05
done
tck=$(getconf CLK_TCK)
payload1k=$(head -c 1024 /dev/zero | tr '\0' 'x')

# cpu_of CMD...: runs CMD (stdout to $tmp/cmd.out), prints its user+sys CPU seconds.
cpu_of() {
    sh -c '"$@" > "'"$tmp"'/cmd.out" 2> "'"$tmp"'/cmd.err" || exit 1
           read -r line < /proc/$$/stat; set -- ${line#*) }; echo "${14} ${15}"' sh "$@" \
        > "$tmp/cpu" || { cat "$tmp/cmd.err" >&2; return 1; }
    awk -v t="$tck" '{printf "%.4f\n", ($1 + $2) / t}' "$tmp/cpu"
}

# srv_ticks: redis-server's user+sys CPU so far, in clock ticks
srv_ticks() {
    read -r line < /proc/$srv/stat; set -- ${line#*) }; echo $((${12} + ${13}))
}

# One measurement; appends "tool throughput cpu_per_command_us server_us_per_command" to
# $tmp/NAME.
per_cmd() { # TOOL THROUGHPUT CLIENT_CPU_S SERVER_TICKS_BEFORE N
    echo "$1 $2 $(awk -v c="$3" -v s0="$4" -v s1="$(srv_ticks)" -v n="$5" -v t="$tck" \
        'BEGIN {printf "%.4f %.4f", c / n * 1e6, (s1 - s0) / t / n * 1e6}')" >> "$tmp/$name"
}
run_rb() { # NAME N RB-ARGS...
    name=$1; n=$2; shift 2
    s0=$(srv_ticks)
    cpu=$(cpu_of $cpin redis-benchmark -p "$port" -n "$n" --csv "$@")
    rps=$(awk -F'","' 'NR > 1 && NF > 1 {print $2; exit}' "$tmp/cmd.out")
    per_cmd rb "$rps" "$cpu" "$s0" "$n"
}
run_drv() { # NAME N DRIVER-ARGS...
    name=$1; n=$2; shift 2
    s0=$(srv_ticks)
    cpu=$(cpu_of $cpin "$driver" redis --port "$port" --requests "$n" --warmup 0 "$@" ${DRIVER_ARGS:-})
    tp=$(node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
        const bad = Object.entries(d.errors).filter(([, v]) => v > 0);
        if (bad.length) { console.error("bench: driver errors in " + process.argv[2] + ": " +
            bad.map(([k, v]) => k + " " + v).join(", ")); process.exit(1); }
        console.log(d.throughput)' "$tmp/cmd.out" "$name") || exit 3
    per_cmd "${tag:-drv}" "$tp" "$cpu" "$s0" "$n"
}

# config NAME N "RB-ARGS" "DRIVER-ARGS"
config() {
    name=$1; n=$(($2 * scale)); rbargs=$3; dargs=$4
    if [ -n "${BENCH_ONLY:-}" ] && ! printf '%s\n' "$name" | grep -Eq "$BENCH_ONLY"; then
        return 0
    fi
    : > "$tmp/$name"
    r=1
    while [ $r -le "$rounds" ]; do
        if [ $((r % 2)) -eq 1 ]; then
            eval "run_rb $name $n $rbargs"; eval "run_drv $name $n $dargs"
        else
            eval "run_drv $name $n $dargs"; eval "run_rb $name $n $rbargs"
        fi
        r=$((r + 1))
    done
    median() { grep "^$1 " "$tmp/$name" | awk "{print \$$2}" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
    rbt=$(median rb 2); dt=$(median drv 2); rbc=$(median rb 3); dc=$(median drv 3)
    rbs=$(median rb 4); ds=$(median drv 4)
    # per-round throughput ratios (each round's two runs are adjacent): median [min-max]
    paired=$(awk '{t[$1] = $2} NR % 2 == 0 {print t["drv"] / t["rb"]}' "$tmp/$name" | sort -g |
        awk '{v[NR] = $1} END {printf "%.2f [%.2f-%.2f]", v[int((NR + 1) / 2)], v[1], v[NR]}')
    # redis-server: median us per command under each client, and the share of one core
    # that is at each client's median throughput
    srvcol=$(awk -v a="$rbs" -v b="$ds" -v ta="$rbt" -v tb="$dt" \
        'BEGIN {printf "%6.3f %6.3f  %4.2f %4.2f", a, b, a * ta / 1e6, b * tb / 1e6}')
    printf '%-26s %9.0f %9.0f %6.2f   %6.3f %6.3f %6.2f   %-18s  %s\n' "$name" "$rbt" "$dt" \
        "$(awk -v a="$dt" -v b="$rbt" 'BEGIN {print a / b}')" "$rbc" "$dc" \
        "$(awk -v a="$dc" -v b="$rbc" 'BEGIN {print a / b}')" "$paired" "$srvcol"
}

host_line
printf 'redis-server %s on 127.0.0.1:%s, %s rounds, alternating; pinning: %s; driver args: %s; medians\n' \
    "$(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/')" "$port" "$rounds" \
    "$pinned" "${DRIVER_ARGS:-none}"

# BENCH_TMPL=1: tmpl_pair NAME N "ARGS" BUILT-IN TEMPLATE, the driver alone: the built-in
# (tag bi) and the template (tag tp) adjacent in each round, the order alternating.
tmpl_pair() {
    name=$1; n=$(($2 * scale)); targs=$3; tbi=$4; ttp=$5
    : > "$tmp/$name"
    r=1
    while [ $r -le "$rounds" ]; do
        if [ $((r % 2)) -eq 1 ]; then
            tag=bi; eval "run_drv $name $n $targs --command $tbi"
            tag=tp; eval "run_drv $name $n $targs --command '$ttp'"
        else
            tag=tp; eval "run_drv $name $n $targs --command '$ttp'"
            tag=bi; eval "run_drv $name $n $targs --command $tbi"
        fi
        r=$((r + 1))
    done
    tag=drv
    median() { grep "^$1 " "$tmp/$name" | awk "{print \$$2}" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
    bt=$(median bi 2); tt=$(median tp 2); bc=$(median bi 3); tc=$(median tp 3)
    bs=$(median bi 4); ts=$(median tp 4)
    paired=$(awk '{t[$1] = $2} NR % 2 == 0 {print t["tp"] / t["bi"]}' "$tmp/$name" | sort -g |
        awk '{v[NR] = $1} END {printf "%.3f [%.3f-%.3f]", v[int((NR + 1) / 2)], v[1], v[NR]}')
    printf '%-26s %9.0f %9.0f %6.3f   %6.3f %6.3f %6.3f   %-22s  %6.3f %6.3f\n' "$name" "$bt" "$tt" \
        "$(awk -v a="$tt" -v b="$bt" 'BEGIN {print a / b}')" "$bc" "$tc" \
        "$(awk -v a="$tc" -v b="$bc" 'BEGIN {print a / b}')" "$paired" "$bs" "$ts"
}
if [ -n "${BENCH_TMPL:-}" ]; then
    printf '%-26s %9s %9s %6s   %6s %6s %6s   %-22s  %s\n' configuration "bi cmd/s" "tp cmd/s" \
        ratio "bi us" "tp us" ratio "per-round ratios" "server us/cmd: bi tp"
    common="--connections 50 --payload 64 --keyspace 100000 --pipeline 16"
    tmpl_pair "set-64B-c50-r100000-P16" 600000 "$common" SET 'SET key:__rand_int__ __data__'
    tmpl_pair "get-64B-c50-r100000-P16" 600000 "$common" GET 'GET key:__rand_int__'
    echo "bi = built-in, tp = the same command as a template (driver only); ratio = tp / bi:"
    echo "throughput within 5% of 1 and driver CPU per command within 5% is the target"
    exit 0
fi
printf '%-26s %9s %9s %6s   %6s %6s %6s   %-18s  %s\n' configuration "rb cmd/s" "drv cmd/s" \
    ratio "rb us" "drv us" ratio "per-round ratios" "server us/cmd, busy: rb drv, rb drv"
config "echo-1KiB-c4-P1" 40000 "-c 4 -P 1 ECHO $payload1k" "--connections 4 --payload 1024 --pipeline 1"
config "echo-1KiB-c4-P16" 200000 "-c 4 -P 16 ECHO $payload1k" "--connections 4 --payload 1024 --pipeline 16"
config "echo-1KiB-c4-P64" 400000 "-c 4 -P 64 ECHO $payload1k" "--connections 4 --payload 1024 --pipeline 64"
config "set-64B-c50-r100000-P1" 40000 "-c 50 -P 1 -d 64 -r 100000 -t set" \
    "--connections 50 --payload 64 --keyspace 100000 --pipeline 1 --command SET"
config "set-64B-c50-r100000-P16" 200000 "-c 50 -P 16 -d 64 -r 100000 -t set" \
    "--connections 50 --payload 64 --keyspace 100000 --pipeline 16 --command SET"
# The SET rows leave whichever tool ran last as the writer of most keys; the driver checks
# every GET reply against the values it writes (redis-benchmark writes 'x's), so the driver
# rewrites the keyspace first (~98% of the 100000 keys; a missing key's nil is allowed).
cpu_of $cpin "$driver" redis --port "$port" --requests 400000 --warmup 0 --connections 50 \
    --payload 64 --keyspace 100000 --pipeline 16 --command SET > /dev/null
config "get-64B-c50-r100000-P1" 40000 "-c 50 -P 1 -d 64 -r 100000 -t get" \
    "--connections 50 --payload 64 --keyspace 100000 --pipeline 1 --command GET"
config "get-64B-c50-r100000-P16" 200000 "-c 50 -P 16 -d 64 -r 100000 -t get" \
    "--connections 50 --payload 64 --keyspace 100000 --pipeline 16 --command GET"
# The same two commands written as templates (the driver's template path: the same bytes,
# replies checked by type): their ratios should match the built-ins' rows within 5%.
config "set-tmpl-64B-c50-r100000-P16" 200000 "-c 50 -P 16 -d 64 -r 100000 -t set" \
    "--connections 50 --payload 64 --keyspace 100000 --pipeline 16 --command 'SET key:__rand_int__ __data__'"
config "get-tmpl-64B-c50-r100000-P16" 200000 "-c 50 -P 16 -d 64 -r 100000 -t get" \
    "--connections 50 --payload 64 --keyspace 100000 --pipeline 16 --command 'GET key:__rand_int__'"
# Templates beside the built-ins, driver against driver: median throughput and client CPU
# per command of each, and template / built-in (target: within 5%).
for c in set get; do
    b="$tmp/$c-64B-c50-r100000-P16" t="$tmp/$c-tmpl-64B-c50-r100000-P16"
    [ -s "$b" ] && [ -s "$t" ] || continue
    med() { grep '^drv ' "$1" | awk "{print \$$2}" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
    awk -v c="$c" -v bt="$(med "$b" 2)" -v tt="$(med "$t" 2)" -v bc="$(med "$b" 3)" -v tc="$(med "$t" 3)" \
        'BEGIN {printf "%s driver, template vs built-in: %.0f vs %.0f cmd/s (%.2f), %.3f vs %.3f us/cmd (%.2f)\n",
                c, tt, bt, tt / bt, tc, bc, tc / bc}'
done
echo "ratio = driver / redis-benchmark: throughput >= 1 and CPU per command <= 1 is the target;"
echo "busy = redis-server's CPU seconds per second at that throughput (1.00: one core, its limit)"
