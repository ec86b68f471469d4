#!/bin/sh
# pairbench-test: untimed
# driver wrap: real redis-benchmark against a real redis-server, real wrk and h2load against
# a real nginx. The result carries the tool's count, checked from the other side (redis's
# commandstats, nginx's access log), its rate, latency, and its own CPU and peak RSS (wait4);
# placeholders come from a --config file; a missing tool, a failing tool and output that is
# no report (the real h2load and redis-benchmark asked for --version) each exit 3 naming the
# tool; and a spec can use wrap as a version's driver
# (compare appends --config FILE). Cost: about 6 s.
. "$(dirname "$0")/../lib.sh"
need redis-benchmark
need wrk
need h2load
need nginx
need node

start_redis r1
expect_json() { # FILE EXPRESSIONS (one per line): every one must hold
    got=$(node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const bad = process.argv[2].split("\n").filter((e) => e.trim() && !(function () { return eval(e); }).call(d));
console.log(bad.length ? "failed: " + bad.join(" | ") + " in " + JSON.stringify(d) : "ok");
' "$1" "$2")
    [ "$got" = ok ] || fail "$1: $got"
}

# 1. redis-benchmark: exactly its -n GETs reach the server, and the result says so
redis-cli -p "$REDIS_PORT" CONFIG RESETSTAT > /dev/null
echo "{\"host\": \"127.0.0.1\", \"port\": $REDIS_PORT, \"connections\": 4}" > "$T/cfg.json"
"$DRIVER" wrap redis-benchmark -- -h '{host}' -p '{port}' -c '{connections}' -n 3000 -t get \
    --config "$T/cfg.json" > "$T/rb.json" 2> "$T/rb.err" || fail "wrap redis-benchmark: $(cat "$T/rb.err")"
calls=$(redis_calls "$REDIS_PORT" get)
assert_eq "$calls" 3000 "GET calls seen by redis-server"
expect_json "$T/rb.json" '
this.schema === "pairbench.result/1" && this.status === "ok" && this.protocol === "redis"
this.ops === 3000 && this.throughput > 0 && Math.abs(this.throughput - this.ops / this.elapsed_s) < 1
this.latency_us.p50 > 0 && this.latency_us.p99 >= this.latency_us.p50 && this.latency_us.max >= this.latency_us.p99
this.cpu.user_s + this.cpu.sys_s > 0 && this.rss_peak_kib > 1000
this.wrap.tool === "redis-benchmark" && this.wrap.argv.join(" ").includes("-p '"$REDIS_PORT"' -c 4")
this.config.port === '"$REDIS_PORT"''

# 2. nginx: plain HTTP/1.1 for wrk, cleartext h2 for h2load
mkdir -p "$T/www"
head -c 4096 /dev/urandom > "$T/www/file.bin"
start_nginx nginx "
    log_format st '\$status';
    access_log $T/access.log st;
    server { listen 127.0.0.1:@PORT@; listen 127.0.0.1:@PORT2@ http2; root $T/www; }"
PORT=$NGINX_PORT
PORT2=$NGINX_PORT2

: > "$T/access.log"
"$DRIVER" wrap h2load -- -n 600 -c 2 -m 4 "http://127.0.0.1:$PORT2/file.bin" > "$T/h2.json" \
    2> "$T/h2.err" || fail "wrap h2load: $(cat "$T/h2.err")"
assert_eq "$(grep -c '^200$' "$T/access.log")" 600 "h2 requests in nginx's log"
expect_json "$T/h2.json" '
this.status === "ok" && this.ops === 600 && this.throughput > 0 && this.latency_us.mean > 0
this.cpu.user_s + this.cpu.sys_s > 0 && this.rss_peak_kib > 1000'

: > "$T/access.log"
"$DRIVER" wrap wrk -- -t1 -c2 -d1s --latency "http://127.0.0.1:$PORT/file.bin" > "$T/wrk.json" \
    2> "$T/wrk.err" || fail "wrap wrk: $(cat "$T/wrk.err")"
logged=$(grep -c '^200$' "$T/access.log")
# wrk counts the replies it read; nginx also logs those still in flight when wrk stopped
expect_json "$T/wrk.json" '
this.status === "ok" && this.ops > 0 && this.ops <= '"$logged"' && this.ops >= '"$logged"' - 2
this.latency_us.p50 > 0 && this.latency_us.p99 >= this.latency_us.p50
this.elapsed_s >= 0.9 && Math.abs(this.throughput - this.ops / this.elapsed_s) <= 0.01 * this.throughput'

# a 404 path: every reply is an error, the run fails with its result printed
rc=0
"$DRIVER" wrap h2load -- -n 50 -c 1 "http://127.0.0.1:$PORT2/nope" > "$T/404.json" 2> "$T/404.err" || rc=$?
assert_eq "$rc" 3 "exit code of a run with only 404s"
expect_json "$T/404.json" '
this.status === "failed" && this.ops === 0 && this.errors.protocol === 50'

# 3. clear errors: missing tool, tool failure, no report, placeholder without value, bad usage
check3() { # expected-rc expected-text cmd...
    want=$1 text=$2; shift 2
    rc=0
    "$@" > "$T/e.out" 2> "$T/e.err" || rc=$?
    assert_eq "$rc" "$want" "exit code of: $*"
    grep -qF -- "$text" "$T/e.err" || fail "stderr of '$*' lacks \"$text\": $(cat "$T/e.err")"
    [ "$want" = 2 ] || [ ! -s "$T/e.out" ] || fail "stdout not empty: $*"
}
mkdir -p "$T/bin"
check3 3 "cannot run 'wrk'" env PATH="$T/bin" "$DRIVER" wrap wrk -- -d1s http://127.0.0.1:1/
dead=$(free_port)
check3 3 "wrap: wrk exited with status 1: unable to connect" \
    "$DRIVER" wrap wrk -- -t1 -c1 -d1s "http://127.0.0.1:$dead/"
# a tool that fails saying why on stdout only (wrk's usage): that line is in the error
check3 3 "wrap: wrk exited with status 1: wrk " "$DRIVER" wrap wrk -- -v
check3 3 "redis-benchmark: ran more than one test" \
    "$DRIVER" wrap redis-benchmark -- -p "$REDIS_PORT" -n 100 -t set,get -q
check3 3 "did not finish within --timeout" \
    "$DRIVER" wrap redis-benchmark --timeout 0.5 -- -p "$dead" -n 10 -q
# the real tools asked for their version: exit 0 and no report, refused with what they printed
check3 3 "h2load: expected the lines 'finished in T, ...'" "$DRIVER" wrap h2load -- --version
grep -q '^h2load nghttp2/' "$T/e.err" || fail "h2load --version: its output is not shown: $(cat "$T/e.err")"
check3 3 "redis-benchmark: expected a test's result in its output" \
    "$DRIVER" wrap redis-benchmark -- --version
grep -q '^redis-benchmark [0-9]' "$T/e.err" || fail "redis-benchmark --version: output not shown"
check3 2 "placeholder '{duration}'" "$DRIVER" wrap wrk -- '-d{duration}' --config "$T/cfg.json"
check3 2 "unknown tool 'ab'" "$DRIVER" wrap ab -- -n 1 http://127.0.0.1/
check3 2 "arguments go after '--'" "$DRIVER" wrap wrk -t1
check3 2 "expected '--' and then" "$DRIVER" wrap wrk --timeout 1

# 4. wrap as a version's driver: compare starts redis per run and passes --config FILE; the
# tool's count comes from the configuration ('{requests}'), so compare judges a count-based
# run, not a window the tool never ran
cat > "$T/grid.json" <<JSON
{"name": "wrap", "configs": [{"protocol": "redis", "connections": 2, "requests": 2000}]}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "rb", "server": {"redis": "redis-server --port {port} --bind 127.0.0.1 --save '' --appendonly no --dir {dir}"},
    "driver": "$DRIVER wrap redis-benchmark -- -h '{host}' -p '{port}' -c '{connections}' -n '{requests}' -t set"}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0, "duration": 0.3, "grace": 30}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/cmp" > /dev/null 2> "$T/cmp.err" || rc=$?
[ "$rc" = 0 ] || fail "compare run with wrap as the driver exited $rc: $(cat "$T/cmp/runs.jsonl" 2>/dev/null) $(tail -n 3 "$T/cmp.err")"
expect_json "$T/cmp/runs.jsonl" '
this.status === "ok" && this.result.ops === 2000 && this.result.wrap.tool === "redis-benchmark"'
echo "ok: wrap redis-benchmark, wrk, h2load"
