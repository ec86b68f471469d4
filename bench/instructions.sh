#!/bin/sh
# Benchmark (not a test): the counted-cost channel (compare run --instructions) on this
# machine. Part 1, spread: each row counted REPEATS times (3) under valgrind — redis-server
# SET, GET and LRANGE_100 at 1 and 50 connections, nginx serving 4 KiB, and the reference
# servers `driver serve tcp|http|ws` — and (max-min)/median of instructions per operation
# (target <= 0.5%). Part 2, detection: Redis 7.0 against Valkey 8.0 (SET, GET) with compare
# run, and Debian's redis source as a git repository of two commits (bench/redis-src.sh: as
# shipped, and with ~120 extra instructions on every SET) with compare commits --instructions,
# TRIES tries each, the instructions verdict at the default 1% threshold, and an A/A of the
# shipped commit against itself. Prints tables; run directories under OUT.
# Part 3, exact (issue 35): three identical versions of each row counted in 3 rounds (seeds
# 1, 2, 3), the interposer on ("exact": true) and off side by side (and "busy": on, with two
# busy loops beside the counted runs): the spread of the 3 runs of one seed (the worst seed;
# target <= 0.01%), the same for the raw window counts, and across the 3 seeds (version a),
# per row: redis SET, GET, LRANGE_100 at 1 and 50 connections, a 200-field hash's HSET/HDEL
# (hashtable encoding), valkey SET/GET at 1 and 50 connections and with --io-threads 2 at 50,
# nginx 4 KiB, driver serve tcp|http|ws.
# Usage: sh bench/instructions.sh [spread|detect|commits|rv|exact|all]   (commits: the Debian
#   source part of detect only; rv: its Redis/Valkey part only)   env: REQUESTS (10000),
#   TRIES (3), OUT (a temp dir), REDIS_SRC (the cache directory of bench/redis-src.sh; made
#   when absent), EXACT_ROWS (redis hash vk vio nginx
#   serve), EXACT_MODES (on off; also busy).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-all}
requests=${REQUESTS:-10000}
tries=${TRIES:-3}
out=${OUT:-$(mktemp -d /tmp/pairbench-instructions.XXXXXX)}
compare=$top/bin/compare
mkdir -p "$out"
. "$top/bench/host.sh"
host_line
echo "instructions bench: run directories under $out" >&2

spec() { # file versions-json grid-file [off: the channel left to --instructions]
    on="" && [ "${4:-}" = off ] && on='"enabled": false, '
    cat > "$1" <<EOT
{"versions": $2, "grids": ["$3"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {$on"runs": 3, "requests": $requests, "warmup_requests": 2000, "idle_s": 0.5}}
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

exact_table() { # run-dir mode -> | row | mode | one seed | raw one seed | across seeds | method | counts by seed |
    node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
const sp = a => a.length < 2 ? NaN : (Math.max(...a) - Math.min(...a)) / a.slice().sort((x, y) => x - y)[a.length >> 1] * 100;
const labels = [...new Set(l.map(x => x.label))];
for (const lb of labels) {
  const r = l.filter(x => x.label === lb);
  const bad = r.filter(x => x.status !== "ok");
  if (bad.length) { console.log(`| ${lb} | ${process.argv[2]} | ${bad.length} failed: ${(bad[0].reason || "").slice(0, 120)} | | | | |`); continue; }
  const seeds = [...new Set(r.map(x => x.instructions.fixed.seed))].sort();
  const worst = f => Math.max(...seeds.map(s => sp(r.filter(x => x.instructions.fixed.seed === s).map(f))));
  const one = worst(x => x.instructions.per_op), raw = worst(x => x.instructions.window_instructions / x.instructions.ops);
  const across = sp(r.filter(x => x.version === "a").map(x => x.instructions.per_op));
  const ex = r.every(x => x.instructions.fixed.exact) ? "" : " (not exact: " + r.find(x => !x.instructions.fixed.exact).instructions.fixed.reason + ")";
  const m = [...new Set(r.map(x => x.instructions.idle_method))].join("+");
  const w = r.map(x => x.instructions.window_wakeups), ws = r.map(x => x.instructions.window_s);
  const by = seeds.map(s => s + ": " + r.filter(x => x.instructions.fixed.seed === s).map(x => x.instructions.per_op.toFixed(2)).join("/")).join("; ");
  console.log(`| ${lb} | ${process.argv[2]}${ex} | ${one.toFixed(4)}% | ${raw.toFixed(4)}% | ${across.toFixed(4)}% | ${m}, wake-ups ${Math.min(...w)}-${Math.max(...w)}, window ${Math.min(...ws).toFixed(1)}-${Math.max(...ws).toFixed(1)} s | ${by} |`);
}' "$1" "$2"
}

if [ "$what" = exact ] || [ "$what" = all ]; then
    d=$out/exact && mkdir -p "$d"
    rsrv='--port {port} --bind 127.0.0.1 --save \"\" --appendonly no --dir {dir}'
    three() { # server-command-json-value -> three identical versions a b c
        echo "[{\"name\": \"a\", \"server\": $1}, {\"name\": \"b\", \"server\": $1}, {\"name\": \"c\", \"server\": $1}]"
    }
    echo '{"name": "redis", "defaults": {"protocol": "redis", "keyspace": 100000}, "axes": {"command": ["SET", "GET", "LRANGE_100"], "connections": [1, 50]}}' > "$d/redis-grid.json"
    echo '{"name": "hash", "defaults": {"protocol": "redis", "setup": [{"command": "HSET test_HGET f__i__ v__i__", "count": 200}]}, "configs": [{"command": "HSET test_HGET f157 x f3 x f9 x f41 x f88 x f120 x f7 x f199 x f64 x"}, {"command": "HDEL test_HGET f157 f3 f9 f41 f88 f120 f7 f199 f64"}]}' > "$d/hash-grid.json"
    echo '{"name": "valkey", "defaults": {"protocol": "redis", "keyspace": 100000}, "axes": {"command": ["SET", "GET"], "connections": [1, 50]}}' > "$d/vk-grid.json"
    echo '{"name": "valkey-io", "defaults": {"protocol": "redis", "keyspace": 100000, "connections": 50}, "axes": {"command": ["SET", "GET"]}}' > "$d/vio-grid.json"
    nginx_conf "$d/nginx"
    echo '{"name": "nginx", "defaults": {"protocol": "http", "path": "/4k"}, "configs": [{}]}' > "$d/nginx-grid.json"
    echo '{"name": "serve", "defaults": {}, "axes": {"protocol": ["tcp", "http", "ws"]}}' > "$d/serve-grid.json"
    echo
    echo "| row | interposer | spread, 3 runs of one seed (worst seed) | the same, raw window counts | spread across 3 seeds | idle correction | per seed: a/b/c |"
    echo "|---|---|---:|---:|---:|---|---|"
    for row in ${EXACT_ROWS:-redis hash vk vio nginx serve}; do
        case $row in
        redis) v=$(three "{\"redis\": \"redis-server $rsrv\"}") ;;
        hash) v=$(three "{\"redis\": \"redis-server $rsrv --hash-max-listpack-entries 64\"}") ;;
        vk) v=$(three "{\"redis\": \"valkey-server $rsrv\"}") ;;
        vio) v=$(three "{\"redis\": \"valkey-server --io-threads 2 $rsrv\"}") ;;
        nginx) v=$(three "{\"http\": \"$d/nginx/nginx.sh {port}\"}") ;;
        serve) v=$(three "{\"tcp\": \"$top/bin/driver serve tcp --port {port}\", \"http\": \"$top/bin/driver serve http --port {port}\", \"ws\": \"$top/bin/driver serve ws --port {port}\"}") ;;
        esac
        # modes: on (the interposer), off ("exact": false), busy (on, two busy loops beside)
        for mode in ${EXACT_MODES:-on off}; do
            spec "$d/$row-$mode.json" "$v" "$d/$row-grid.json"
            [ "$mode" = off ] && sed -i 's/"idle_s": 0.5}/"idle_s": 0.5, "exact": false}/' "$d/$row-$mode.json"
            busy=""
            if [ "$mode" = busy ]; then
                sh -c 'while :; do :; done' & busy="$!"
                sh -c 'while :; do :; done' & busy="$busy $!"
            fi
            "$compare" run --spec "$d/$row-$mode.json" --out "$d/$row-$mode" >"$d/$row-$mode.log" 2>&1 ||
                echo "compare run $row $mode exited $? (see $d/$row-$mode.log)" >&2
            [ -n "$busy" ] && kill $busy
            exact_table "$d/$row-$mode" "$mode"
        done
    done
fi

if [ "$what" = detect ] || [ "$what" = commits ] || [ "$what" = rv ] || [ "$what" = all ]; then
    d=$out/detect && mkdir -p "$d"
    echo '{"name": "set-get", "defaults": {"protocol": "redis"}, "axes": {"command": ["SET", "GET"]}}' > "$d/grid.json"
    srv='--port {port} --save \"\" --appendonly no --dir {dir}'
    spec "$d/rv.json" "[{\"name\": \"redis-7.0\", \"server\": {\"redis\": \"redis-server $srv\"}}, {\"name\": \"valkey-8.0\", \"server\": {\"redis\": \"valkey-server $srv\"}}]" "$d/grid.json"
    # the Debian source as a git repository: HEAD~1 as shipped, HEAD with the extra cost on
    # SET; compare commits builds each commit once (cached by SHA under $src/trees)
    repo=$(sh "$top/bench/redis-src.sh" ${REDIS_SRC:+"$REDIS_SRC"})
    src=$(dirname "$repo")
    build=$(sh "$top/bench/redis-src.sh" --build-cmd)
    spec "$d/commits.json" "[{\"name\": \"baseline\", \"server\": {\"redis\": \"{tree}/src/redis-server $srv\"}}, {\"name\": \"candidate\", \"server\": {\"redis\": \"{tree}/src/redis-server $srv\"}}]" "$d/grid.json" off
    echo
    echo "| comparison | try | row | instructions verdict | change |"
    echo "|---|---:|---|---|---:|"
    # rv: compare run on the installed servers; ab and aa: compare commits --instructions
    # (the spec leaves the channel to the flag), HEAD~1 -> HEAD and HEAD~1 -> HEAD~1
    for s in rv ab aa; do
        [ "$what" = commits ] && [ "$s" = rv ] && continue
        [ "$what" = rv ] && [ "$s" != rv ] && continue
        t=1
        while [ "$t" -le "$tries" ]; do
            case $s in
            rv) "$compare" run --spec "$d/rv.json" --out "$d/rv-$t" >"$d/rv-$t.log" 2>&1 || true ;;
            *) cand=HEAD && [ "$s" = aa ] && cand=HEAD~1
               "$compare" commits --repo "$repo" --baseline HEAD~1 --candidate "$cand" --build "$build" \
                   --cache "$src/trees" --spec "$d/commits.json" --instructions --out "$d/$s-$t" \
                   >"$d/$s-$t.log" 2>&1 || true ;;
            esac
            verdicts "$d/$s-$t" | while IFS="$(printf '\t')" read -r label v ch; do
                echo "| $s | $t | $label | $v | $ch |"
            done
            t=$((t + 1))
        done
    done
fi
