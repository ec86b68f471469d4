#!/bin/sh
# Benchmark (not a test): each redis-benchmark built-in beside the same command written as a
# template, against redis-server 7.0 (issue 36: "the same server instructions per operation
# within 0.1% and the same bytes on the wire"). Two counted figures, no timing lock needed:
#  - wire: the server's own INFO stats (total_net_input_bytes, total_net_output_bytes) over
#    REQUESTS and 2*REQUESTS measured commands on one connection; the difference divided by
#    REQUESTS is the bytes per command in and out, free of the handshake and setup;
#  - instructions: compare run --instructions (valgrind, exact mode: fixed randomness), the
#    median of 3 counted runs of each row; the LRANGE_N templates get the built-in's prefill
#    as setup: the same two commands, LPUSH mylist of N values and LTRIM mylist 0 N-1.
# Prints one line per built-in: bytes in/out per command of both, instructions per op of both
# and their ratio, flagged DIFFERS when the bytes differ or the ratio is beyond 0.1%.
# Usage: sh bench/redis-tmpl-equiv.sh   env: REQUESTS (2000), OUT (temp dir),
# ONLY (a grep -E filter on the built-in names).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/host.sh"
requests=${REQUESTS:-2000}
out=${OUT:-$(mktemp -d /tmp/pairbench-tmpl-equiv.XXXXXX)}
drv=$top/bin/driver
mkdir -p "$out"
m10="MSET"; i=0
while [ $i -lt 10 ]; do m10="$m10 key:__rand_int__ __data__"; i=$((i + 1)); done
cat > "$out/pairs.txt" <<EOT
PING|PING
ECHO|ECHO __data__
SET|SET key:__rand_int__ __data__
GET|GET key:__rand_int__
INCR|INCR counter:__rand_int__
LPUSH|LPUSH mylist __data__
RPUSH|RPUSH mylist __data__
LPOP|LPOP mylist
RPOP|RPOP mylist
SADD|SADD myset element:__rand_int__
HSET|HSET myhash element:__rand_int__ __data__
SPOP|SPOP myset
ZADD|ZADD myzset __rand_score__ element:__rand_int__
ZPOPMIN|ZPOPMIN myzset
MSET|$m10
LRANGE_100|LRANGE mylist 0 99
LRANGE_300|LRANGE mylist 0 299
LRANGE_500|LRANGE mylist 0 499
LRANGE_600|LRANGE mylist 0 599
EOT
[ -n "${ONLY:-}" ] && grep -E "^(${ONLY})\|" "$out/pairs.txt" > "$out/p" && mv "$out/p" "$out/pairs.txt"

port=$(free_port)
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$out" \
    > "$out/redis.log" 2>&1 &
rpid=$!
trap 'kill $rpid 2>/dev/null || true' EXIT INT TERM
sleep 0.5
stat() { redis-cli -p "$port" INFO stats | tr -d '\r' | sed -n "s/^$1://p"; }
wire() { # NAME COMMAND [SETUP-JSON]: "in out" bytes per command
    for n in "$requests" $((2 * requests)); do
        redis-cli -p "$port" FLUSHALL > /dev/null
        redis-cli -p "$port" CONFIG RESETSTAT > /dev/null
        if [ -n "${3:-}" ]; then
            "$drv" redis --port "$port" --command "$2" --setup "$3" --keyspace 1000 \
                --requests "$n" --warmup 0 --seed 1 > /dev/null
        else
            "$drv" redis --port "$port" --command "$2" --keyspace 1000 --requests "$n" \
                --warmup 0 --seed 1 > /dev/null
        fi
        echo "$(stat total_net_input_bytes) $(stat total_net_output_bytes)"
    done | awk -v n="$requests" 'NR==1{a=$1;b=$2} NR==2{printf "%.2f %.2f", ($1-a)/n, ($2-b)/n}'
}
setup_of() { # the built-in's prefill, as the same two commands
    case $1 in LRANGE_*)
        k=0; c="LPUSH mylist"; n=${1#LRANGE_}
        while [ $k -lt "$n" ]; do c="$c __data__"; k=$((k + 1)); done
        echo "[\"$c\", \"LTRIM mylist 0 $((n - 1))\"]" ;;
    esac
}

: > "$out/wire.txt"
configs=""
while IFS='|' read -r b t; do
    s=$(setup_of "$b")
    echo "$b|$(wire "$b" "$b")|$(wire "$b" "$t" "$s")" >> "$out/wire.txt"
    tj=$(printf '%s' "$t" | node -e 'process.stdout.write(JSON.stringify(require("fs").readFileSync(0, "utf8")))')
    configs="$configs{\"command\": \"$b\"},"
    if [ -n "$s" ]; then configs="$configs{\"command\": $tj, \"setup\": $s},"
    else configs="$configs{\"command\": $tj},"; fi
done < "$out/pairs.txt"
kill $rpid 2>/dev/null || true

cat > "$out/grid.json" <<EOT
{"name": "tmpl-equiv", "defaults": {"protocol": "redis", "connections": 1, "keyspace": 1000},
 "configs": [${configs%,}]}
EOT
cat > "$out/spec.json" <<EOT
{"versions": [{"name": "redis", "driver": "$drv", "server": {"redis": "redis-server --port {port} --bind 127.0.0.1 --save '' --appendonly no --dir {dir}"}}],
 "grids": ["$out/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.2,
 "instructions": {"runs": 3, "requests": $requests, "warmup_requests": 500, "idle_s": 0.3}}
EOT
"$top/bin/compare" run --spec "$out/spec.json" --instructions --out "$out/run" > /dev/null \
    2> "$out/compare.err" || { tail -n 5 "$out/compare.err" >&2; exit 1; }
node -e '
const fs = require("fs");
const [runs, wire, pairs] = process.argv.slice(1).map(f => fs.readFileSync(f, "utf8").trim().split("\n"));
const per = {};
for (const l of runs.map(JSON.parse).filter(r => r.kind === "instructions" && r.instructions)) {
  const c = l.label.split(" · ")[1];
  (per[c] = per[c] || []).push(l.instructions.per_op);
}
const med = a => { if (!a) return NaN; a = a.slice().sort((x, y) => x - y); return a[a.length >> 1]; };
const short = t => t.length > 40 ? t.slice(0, 37) + "..." : t;
console.log("built-in    template                                  bytes in/out per cmd (b | t)       instr/op built-in  template   ratio");
pairs.forEach((p, i) => {
  const [b, t] = p.split("|"), w = wire[i].split("|");
  const ib = med(per[b]), it = med(per[t] || per[t.slice(0, 37) + "..."]);
  const far = !(Math.abs(it / ib - 1) <= 0.001) || w[1] !== w[2];
  console.log(b.padEnd(11), short(t).padEnd(41), (w[1] + " | " + w[2]).padEnd(34),
              ib.toFixed(1).padStart(17), it.toFixed(1).padStart(9), (it / ib).toFixed(4).padStart(7),
              far ? "DIFFERS" : "same");
});
' "$out/run/runs.jsonl" "$out/wire.txt" "$out/pairs.txt"
echo "run directory: $out/run" >&2
