#!/bin/sh
# Benchmark (not a test): the full cost of a request on this machine. Part 1, "aa": an A/A
# (the same server twice, RUNS rounds, 3) per workload — redis-server SET and GET at 1 and 50
# connections and pipeline 1 and 16, nginx serving 4 KiB, the reference servers `driver
# serve tcp|http|ws` — with --syscalls and the instructions counted under valgrind (which
# gives allocations too), the software events read in every timed run; prints per row and
# metric the baseline's median per operation, the spread (max-min)/median of its RUNS runs,
# the A/A change and verdict, and each counted mode's slowdown against the timed run
# (throughput timed / throughput traced or counted). Part 2, "detect": the reference server
# with --extra-syscalls 1, --extra-allocs 1 and --extra-wakeups 1 against the plain one,
# TRIES (3) comparisons, the verdicts of the new metrics per candidate. Part 3, "rv": Redis 7.0
# against Valkey 8.0 (SET, GET) with each metric and its breakdown. The counted runs simulate the
# cache (estimated cycles; CACHE_SIM=false leaves it out).
# Timed runs are taken under flock /tmp/pairbench-timing.lock (one timing at a time).
# Usage: sh bench/full-cost.sh [aa|detect|rv|all]   env: RUNS (3), TRIES (3), REQUESTS (3000),
#   CACHE_SIM (true),
#   OUT (a temp dir)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-all}
runs=${RUNS:-3}
tries=${TRIES:-3}
requests=${REQUESTS:-3000}
cache_sim=${CACHE_SIM:-true}
out=${OUT:-$(mktemp -d /tmp/pairbench-full-cost.XXXXXX)}
compare=$top/bin/compare
mkdir -p "$out"
. "$top/bench/host.sh"
host_line
echo "full-cost bench: run directories under $out" >&2

spec() { # file versions-json grid-file
    cat > "$1" <<EOT
{"versions": $2, "grids": ["$3"], "runs": $runs, "warmup": 0.2, "duration": 0.5, "syscalls": true, "cache_sim": $cache_sim,
 "instructions": {"source": "valgrind", "runs": 3, "requests": $requests, "warmup_requests": 500, "idle_s": 0.3}}
EOT
}

run_compare() { # spec out-dir
    flock /tmp/pairbench-timing.lock "$compare" run --spec "$1" --out "$2" >"$2.log" 2>&1 ||
        echo "compare run exited $? (see $2.log)" >&2
}

aa_table() { # run-dir
    node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1] + "/summary.json"));
const [a, b] = s.versions, keys = ["syscalls", "allocations", "context_switches", "page_faults", "cpu_migrations", "instructions", "estimated_cycles"];
const f = x => x >= 100 ? x.toFixed(0) : x.toFixed(3);
for (const r of s.rows) {
  const t = r.metrics.throughput.values[a].median;
  const slow = k => { const m = r.metrics[k]; return m && m.throughput_counted ? (t / m.throughput_counted).toFixed(1) + "x" : "-"; };
  const cells = keys.map(k => { const m = r.metrics[k]; if (!m || !m.values[a]) return "-";
    const v = m.values[a], sp = v.median > 0 ? ((v.max - v.min) / v.median * 100).toFixed(1) + "%" : "0%";
    const vs = m.vs_baseline[b]; return f(v.median) + " (" + sp + "; " + (vs.change == null ? "-" : (vs.change * 100).toFixed(1) + "%") + " " + vs.verdict + ")"; });
  console.log("| " + r.label + " | " + cells.join(" | ") + " | " + slow("syscalls") + " | " + slow("instructions") + " |");
}' "$1"
}

if [ "$what" = aa ] || [ "$what" = all ]; then
    d=$out/aa && mkdir -p "$d/ng/tmp"
    head -c 4096 /dev/zero | tr '\0' x > "$d/ng/4k"
    user="" && [ "$(id -u)" = 0 ] && user="user root;"
    cat > "$d/ng/nginx.sh" <<EOT
#!/bin/sh
cat > "$d/ng/nginx-\$1.conf" <<CONF
daemon off;
worker_processes 1;
$user
pid $d/ng/nginx-\$1.pid;
error_log $d/ng/error.log warn;
events { worker_connections 256; }
http { access_log off; keepalive_requests 1000000; client_body_temp_path $d/ng/tmp/b;
  proxy_temp_path $d/ng/tmp/p; fastcgi_temp_path $d/ng/tmp/f; uwsgi_temp_path $d/ng/tmp/u;
  scgi_temp_path $d/ng/tmp/s; server { listen 127.0.0.1:\$1; root $d/ng; } }
CONF
exec nginx -p "$d/ng" -c "$d/ng/nginx-\$1.conf" -e "$d/ng/error.log"
EOT
    chmod +x "$d/ng/nginx.sh"
    cat > "$d/redis-grid.json" <<EOT
{"name": "redis", "defaults": {"protocol": "redis"},
 "axes": {"command": ["SET", "GET"], "connections": [1, 50], "pipeline": [1, 16]}}
EOT
    rs='redis-server --port {port} --save \"\" --appendonly no --dir {dir}'
    spec "$d/redis.json" "[{\"name\": \"A\", \"server\": {\"redis\": \"$rs\"}}, {\"name\": \"A-again\", \"server\": {\"redis\": \"$rs\"}}]" "$d/redis-grid.json"
    echo '{"name": "nginx", "defaults": {"protocol": "http", "path": "/4k"}, "configs": [{}]}' > "$d/nginx-grid.json"
    spec "$d/nginx.json" "[{\"name\": \"A\", \"server\": {\"http\": \"$d/ng/nginx.sh {port}\"}}, {\"name\": \"A-again\", \"server\": {\"http\": \"$d/ng/nginx.sh {port}\"}}]" "$d/nginx-grid.json"
    echo '{"name": "serve", "defaults": {}, "axes": {"protocol": ["tcp", "http", "ws"]}}' > "$d/serve-grid.json"
    sv="{\"tcp\": \"$top/bin/driver serve tcp --port {port}\", \"http\": \"$top/bin/driver serve http --port {port}\", \"ws\": \"$top/bin/driver serve ws --port {port}\"}"
    spec "$d/serve.json" "[{\"name\": \"A\", \"server\": $sv}, {\"name\": \"A-again\", \"server\": $sv}]" "$d/serve-grid.json"
    echo "| row | syscalls/op | allocations/op | context switches/op | page faults/op | CPU migrations/op | instructions/op | estimated cycles/op | traced slowdown | callgrind slowdown |"
    echo "|---|---|---|---|---|---|---|---|---:|---:|"
    for s in ${AA_WORKLOADS:-serve redis nginx}; do
        run_compare "$d/$s.json" "$d/$s"
        aa_table "$d/$s"
    done
    echo "(each cell: the median per operation (spread of the $runs runs; A/A change, verdict))"
fi

if [ "$what" = detect ] || [ "$what" = all ]; then
    d=$out/detect && mkdir -p "$d"
    echo '{"name": "t", "defaults": {"protocol": "tcp", "connections": 1}}' > "$d/grid.json"
    srv="$top/bin/driver serve tcp --port {port}"
    spec "$d/spec.json" "[{\"name\": \"plain\", \"server\": {\"tcp\": \"$srv\"}}, {\"name\": \"sys\", \"server\": {\"tcp\": \"$srv --extra-syscalls 1\"}}, {\"name\": \"alloc\", \"server\": {\"tcp\": \"$srv --extra-allocs 1\"}}, {\"name\": \"wake\", \"server\": {\"tcp\": \"$srv --extra-wakeups 1\"}}]" "$d/grid.json"
    echo "| try | candidate | syscalls | allocations | context_switches | page_faults | cpu_migrations |"
    echo "|---|---|---|---|---|---|---|"
    i=1
    while [ "$i" -le "$tries" ]; do
        run_compare "$d/spec.json" "$d/try$i"
        node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1] + "/summary.json")), m = s.rows[0].metrics;
for (const c of ["sys", "alloc", "wake"])
  console.log("| " + process.argv[2] + " | " + c + " | " + ["syscalls", "allocations", "context_switches", "page_faults", "cpu_migrations"]
    .map(k => m[k] ? m[k].vs_baseline[c].verdict + " " + (m[k].vs_baseline[c].change * 100).toFixed(1) + "%" : "-").join(" | ") + " |");' "$d/try$i" "$i"
        i=$((i + 1))
    done
fi

if [ "$what" = rv ] || [ "$what" = all ]; then
    d=$out/rv && mkdir -p "$d"
    echo '{"name": "set-get", "defaults": {"protocol": "redis"}, "axes": {"command": ["SET", "GET"]}}' > "$d/grid.json"
    srv='--port {port} --save \"\" --appendonly no --dir {dir}'
    spec "$d/rv.json" "[{\"name\": \"redis-7.0\", \"server\": {\"redis\": \"redis-server $srv\"}}, {\"name\": \"valkey-8.0\", \"server\": {\"redis\": \"valkey-server $srv\"}}]" "$d/grid.json"
    run_compare "$d/rv.json" "$d/out"
    sed -n '/^## The full cost of a request/,/^## [A-Z]/p' "$d/out/report.md" | sed '$d'
fi
