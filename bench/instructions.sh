#!/bin/sh
# Benchmark (not a test): the counted-cost channel (compare run --instructions) on this
# machine. Part 1, spread: each row counted REPEATS times (3) under valgrind — redis-server
# SET, GET and LRANGE_100 at 1 and 50 connections, nginx serving 4 KiB, and the reference
# servers `driver serve tcp|http|ws` — and (max-min)/median of instructions per operation
# (target <= 0.5%). Part 2, detection: Redis 7.0 against Valkey 8.0 (SET, GET), and Debian's
# redis source built twice (bench/redis-src.sh: as shipped, and with ~100 extra instructions
# on every SET), TRIES tries each, the instructions verdict at the default 1% threshold, and
# an A/A of the shipped build against itself. Prints tables; run directories under OUT.
# Usage: sh bench/instructions.sh [spread|detect|all]   env: REQUESTS (10000), TRIES (3),
#   OUT (a temp dir), REDIS_SRC (the cache of bench/redis-src.sh; built when absent).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-all}
requests=${REQUESTS:-10000}
tries=${TRIES:-3}
out=${OUT:-$(mktemp -d /tmp/pairbench-instructions.XXXXXX)}
compare=$top/bin/compare
mkdir -p "$out"
echo "instructions bench: run directories under $out" >&2

spec() { # file versions-json grid-file
    cat > "$1" <<EOT
{"versions": $2, "grids": ["$3"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 3, "requests": $requests, "warmup_requests": 2000, "idle_s": 0.5}}
EOT
}

# spread of each row's counted runs: label, the counts, (max-min)/median
spread_table() { # run-dir
    node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1] + "/summary.json"));
for (const r of s.rows) {
  for (const v of s.versions) {
    const x = ((r.metrics.instructions || {}).values || {})[v];
    if (!x) { console.log(`| ${r.label} | ${v} | no counted runs | |`); continue; }
    const sp = (x.max - x.min) / x.median * 100;
    console.log(`| ${r.label} | ${v} | ${x.runs.map(n => n.toFixed(1)).join(", ")} | ${sp.toFixed(2)}% ${sp <= 0.5 ? "pass" : "FAIL"} |`);
  }
}' "$1"
}

verdicts() { # run-dir -> one line per row: label verdict change
    node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1] + "/summary.json"));
for (const r of s.rows) {
  const vs = ((r.metrics.instructions || {}).vs_baseline || {})[s.versions[1]] || {};
  console.log(`${r.label}\t${vs.verdict || "failed"}\t${vs.change == null ? "n/a" : (vs.change * 100).toFixed(2) + "%"}`);
}' "$1"
}

nginx_conf() { # dir port-placeholder-free conf for {port}
    mkdir -p "$1/tmp" && head -c 4096 /dev/zero | tr '\0' x > "$1/4k"
    user=""
    # as root nginx's worker switches to nobody and valgrind's gdbserver can no longer be
    # reached; keep the worker as the user running the bench
    [ "$(id -u)" = 0 ] && user="user root;"
    cat > "$1/nginx.conf.in" <<EOT
daemon off;
worker_processes 1;
$user
pid $1/nginx.pid;
error_log $1/error.log warn;
events { worker_connections 256; }
http { access_log off; keepalive_requests 1000000;
  client_body_temp_path $1/tmp/body; proxy_temp_path $1/tmp/proxy;
  fastcgi_temp_path $1/tmp/fastcgi; uwsgi_temp_path $1/tmp/uwsgi; scgi_temp_path $1/tmp/scgi;
  server { listen 127.0.0.1:PORT; root $1; } }
EOT
    # nginx reads one file: a tiny wrapper writes it with the port, then execs nginx
    cat > "$1/nginx.sh" <<EOT
#!/bin/sh
sed "s/PORT/\$1/" "$1/nginx.conf.in" > "$1/nginx-\$1.conf"
exec nginx -p "$1" -c "$1/nginx-\$1.conf" -e "$1/error.log"
EOT
    chmod +x "$1/nginx.sh"
}

if [ "$what" = spread ] || [ "$what" = all ]; then
    d=$out/spread && mkdir -p "$d"
    cat > "$d/redis-grid.json" <<EOT
{"name": "redis", "defaults": {"protocol": "redis"},
 "axes": {"command": ["SET", "GET", "LRANGE_100"], "connections": [1, 50]}}
EOT
    spec "$d/redis.json" '[{"name": "redis-7.0", "server": {"redis": "redis-server --port {port} --save \"\" --appendonly no --dir {dir}"}}]' "$d/redis-grid.json"
    nginx_conf "$d/nginx"
    echo '{"name": "nginx", "defaults": {"protocol": "http", "path": "/4k"}, "configs": [{}]}' > "$d/nginx-grid.json"
    spec "$d/nginx.json" "[{\"name\": \"nginx\", \"server\": {\"http\": \"$d/nginx/nginx.sh {port}\"}}]" "$d/nginx-grid.json"
    echo '{"name": "serve", "defaults": {}, "axes": {"protocol": ["tcp", "http", "ws"]}}' > "$d/serve-grid.json"
    spec "$d/serve.json" "[{\"name\": \"driver-serve\", \"server\": {\"tcp\": \"$top/bin/driver serve tcp --port {port}\", \"http\": \"$top/bin/driver serve http --port {port}\", \"ws\": \"$top/bin/driver serve ws --port {port}\"}}]" "$d/serve-grid.json"
    echo "| row | version | instructions/op of 3 counted runs | spread |"
    echo "|---|---|---|---:|"
    for s in redis nginx serve; do
        "$compare" run --spec "$d/$s.json" --out "$d/$s" >"$d/$s.log" 2>&1 ||
            echo "compare run $s exited $? (see $d/$s.log)" >&2
        spread_table "$d/$s"
    done
fi

if [ "$what" = detect ] || [ "$what" = all ]; then
    d=$out/detect && mkdir -p "$d"
    echo '{"name": "set-get", "defaults": {"protocol": "redis"}, "axes": {"command": ["SET", "GET"]}}' > "$d/grid.json"
    srv='--port {port} --save \"\" --appendonly no --dir {dir}'
    spec "$d/rv.json" "[{\"name\": \"redis-7.0\", \"server\": {\"redis\": \"redis-server $srv\"}}, {\"name\": \"valkey-8.0\", \"server\": {\"redis\": \"valkey-server $srv\"}}]" "$d/grid.json"
    src=${REDIS_SRC:-$(sh "$top/bench/redis-src.sh")}
    spec "$d/ab.json" "[{\"name\": \"debian-redis\", \"server\": {\"redis\": \"$src/redis-a/src/redis-server $srv\"}}, {\"name\": \"debian-redis-set-extra\", \"server\": {\"redis\": \"$src/redis-b/src/redis-server $srv\"}}]" "$d/grid.json"
    spec "$d/aa.json" "[{\"name\": \"debian-redis\", \"server\": {\"redis\": \"$src/redis-a/src/redis-server $srv\"}}, {\"name\": \"debian-redis-again\", \"server\": {\"redis\": \"$src/redis-a/src/redis-server $srv\"}}]" "$d/grid.json"
    echo
    echo "| comparison | try | row | instructions verdict | change |"
    echo "|---|---:|---|---|---:|"
    for s in rv ab aa; do
        t=1
        while [ "$t" -le "$tries" ]; do
            "$compare" run --spec "$d/$s.json" --out "$d/$s-$t" >"$d/$s-$t.log" 2>&1 || true
            verdicts "$d/$s-$t" | while IFS="$(printf '\t')" read -r label v ch; do
                echo "| $s | $t | $label | $v | $ch |"
            done
            t=$((t + 1))
        done
    done
fi
