#!/bin/sh
# pairbench-test: untimed
# The counted-cost channel's counter path, end to end with the real perf_event_open: with the
# test hook PAIRBENCH_COST_EVENT=task-clock (a software event this VM has; no hardware is
# faked) the counters are opened per thread of the real server's tree, inherited, and read at
# the driver's window marks during the timed runs. Checked against `driver serve tcp` with
# and without server-side --work (the heavier server must count more per op), against nginx
# with a master and two workers (every process counted), and against /proc's own CPU figure
# of the same window. "source": "valgrind" forces valgrind. Then the driver-only case: two
# copies of bin/driver against the same server are counted as drivers under valgrind, A/A `~`.
# The hardware-counter run (instructions:u) runs where `perf stat -e instructions:u true`
# works and is skipped with that reason elsewhere.
# Cost: about 60 s on 2 shared cores (0.3 s runs; the driver counted 8 times under valgrind).
. "$(dirname "$0")/../lib.sh"
need nginx
need valgrind
need node

echo '{"name": "t", "defaults": {"protocol": "tcp"}}' > "$T/grid.json"
srv="$DRIVER serve tcp --port {port}"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "plain", "server": {"tcp": "$srv"}},
              {"name": "work", "server": {"tcp": "$srv --work 30000"}}],
 "grids": ["$T/grid.json"], "runs": 2, "warmup": 0.1, "duration": 0.3,
 "instructions": {"source": "counters"}}
JSON
rc=0
PAIRBENCH_COST_EVENT=task-clock "$COMPARE" run --spec "$T/spec.json" --out "$T/c" > /dev/null 2> "$T/c.err" || rc=$?
if [ $rc -eq 2 ] && grep -q 'perf_event_open(task-clock:u)' "$T/c.err"; then
    skip "even software perf events cannot be opened here: $(grep -o 'perf_event_open[^(]*([^)]*)[^"]*' "$T/c.err" | head -n 1) (perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null))"
fi
[ $rc -eq 0 ] || { cat "$T/c.err" >&2; fail "compare run with counters exited $rc"; }
grep -q "counting the server's task-clock:u with perf_event_open" "$T/c.err" || fail "no word of the counters: $(cat "$T/c.err")"

# every timed run is followed by a counted line of its round: ok, counters, the server, the
# run's own ops, and a count no larger than the CPU /proc saw in the same window
check_lines() { # dir min-processes
    node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n").map(JSON.parse);
const runs = l.filter(x => !x.kind), c = l.filter(x => x.kind === "instructions");
const bad = [];
for (const r of runs) {
  const x = c.find(y => y.version === r.version && y.round === r.round && y.config === r.config);
  const i = x && x.instructions;
  const cpu = r.server.window.cpu_s, ns = i ? i.window_instructions / 1e9 : -1;
  if (!(x && x.status === "ok" && i.source === "counters" && i.event === "task-clock:u" &&
        i.perf_event === "PERF_COUNT_SW_TASK_CLOCK" && i.counted === "server" &&
        i.ops === r.result.ops && i.processes >= +process.argv[2] && i.threads >= i.processes &&
        r.server.window.source === "marks" && ns > 0 && ns <= cpu + 0.05 &&
        Math.abs(i.per_op * i.ops - i.window_instructions) < 1))
    bad.push(JSON.stringify({run: r.version + "/" + r.round, cpu, line: x}).slice(0, 500));
}
console.log(runs.length, c.length, bad.length ? bad[0] : "ok");' "$1" "$2"
}
assert_eq "$(check_lines "$T/c" 1)" "4 4 ok" "counted lines of the timed runs"
# the server doing 30000 iterations of extra work per request (about 0.1 ms, several times
# the plain echo's cost, so load on the machine cannot close the gap) counts more per request
assert_eq "$(json_get "$T/c/summary.json" '
const m = this.rows[0].metrics.instructions;
[m.source, m.counted, m.event, m.values.plain.n, m.values.work.median > 1.2 * m.values.plain.median].join(" ")')" \
    "counters server task-clock:u 2 true" "summary of the counted metric"
grep -q "counted by hardware counters (task-clock:u with perf_event_open" "$T/c/report.md" ||
    fail "report.md does not name the counter source"
grep -q "counted by hardware counters (task-clock:u with perf_event_open" "$T/c/report.html" ||
    fail "report.html does not name the counter source"

# nginx: a master and two workers, every process of the tree counted
mkdir -p "$T/ng/tmp" && head -c 4096 /dev/zero | tr '\0' x > "$T/ng/4k"
user=""
[ "$(id -u)" = 0 ] && user="user root;"
cat > "$T/ng/nginx.sh" <<SH
#!/bin/sh
cat > "$T/ng/nginx-\$1.conf" <<CONF
daemon off;
worker_processes 2;
$user
pid $T/ng/nginx-\$1.pid;
error_log $T/ng/error.log warn;
events { worker_connections 64; }
http { access_log off; keepalive_requests 1000000; client_body_temp_path $T/ng/tmp/b;
  proxy_temp_path $T/ng/tmp/p; fastcgi_temp_path $T/ng/tmp/f; uwsgi_temp_path $T/ng/tmp/u;
  scgi_temp_path $T/ng/tmp/s; server { listen 127.0.0.1:\$1; root $T/ng; } }
CONF
exec nginx -p "$T/ng" -c "$T/ng/nginx-\$1.conf" -e "$T/ng/error.log"
SH
chmod +x "$T/ng/nginx.sh"
echo '{"name": "ng", "defaults": {"protocol": "http", "path": "/4k", "connections": 4}}' > "$T/ng-grid.json"
cat > "$T/ng-spec.json" <<JSON
{"versions": [{"name": "nginx", "server": {"http": "$T/ng/nginx.sh {port}"}}],
 "grids": ["$T/ng-grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3, "instructions": true}
JSON
rc=0
PAIRBENCH_COST_EVENT=task-clock "$COMPARE" run --spec "$T/ng-spec.json" --out "$T/ng-out" > /dev/null 2> "$T/ng.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/ng.err" >&2; fail "compare run nginx with counters exited $rc"; }
assert_eq "$(check_lines "$T/ng-out" 3)" "1 1 ok" "nginx master and workers counted"

# valgrind cannot run an AddressSanitizer build: on the sanitized pass the plain build's driver
# (made by the first pass) is the server counted under valgrind and the driver counted
serve_driver=$(valgrind_driver)
[ -n "$serve_driver" ] || echo "skipped: valgrind parts: no plain build of the driver"

# "source": "valgrind" forces valgrind even where counters open
vsrv="$serve_driver serve tcp --port {port}"
[ -n "$serve_driver" ] || vsrv=$srv
cat > "$T/v-spec.json" <<JSON
{"versions": [{"name": "plain", "server": {"tcp": "$vsrv"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"source": "valgrind", "runs": 1, "requests": 300, "warmup_requests": 50, "idle_s": 0.1}}
JSON
if [ -n "$serve_driver" ]; then
rc=0
PAIRBENCH_COST_EVENT=task-clock "$COMPARE" run --spec "$T/v-spec.json" --out "$T/v" > /dev/null 2> "$T/v.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/v.err" >&2; fail "compare run with source valgrind exited $rc"; }
assert_eq "$(json_get "$T/v/summary.json" 'const m = this.rows[0].metrics.instructions; [/^valgrind-/.test(m.source), m.counted].join(" ")')" \
    "true server" "source valgrind is obeyed"
fi
# a bad source is refused, naming the key
rc=0
sed 's/"valgrind"/"perf"/' "$T/v-spec.json" > "$T/bad.json"
"$COMPARE" run --spec "$T/bad.json" --out "$T/bad" > /dev/null 2> "$T/bad.err" || rc=$?
assert_eq "$rc" 2 "exit code of a bad source"
grep -q 'instructions.source: expected "auto", "valgrind" or "counters"' "$T/bad.err" || fail "bad source: $(cat "$T/bad.err")"

# the driver-only case: the same server, two copies of the driver; the driver is counted
# under valgrind (N and 2N requests), its lines say so, and the A/A is never flagged
if [ -n "$serve_driver" ]; then
cp "$serve_driver" "$T/d1" && cp "$serve_driver" "$T/d2"
cat > "$T/d-spec.json" <<JSON
{"versions": [{"name": "d1", "driver": "$T/d1", "server": {"tcp": "$srv"}},
              {"name": "d2", "driver": "$T/d2", "server": {"tcp": "$srv"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 2, "requests": 1000, "warmup_requests": 100}}
JSON
rc=0
"$COMPARE" run --spec "$T/d-spec.json" --out "$T/d" > /dev/null 2> "$T/d.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/d.err" >&2; fail "compare run of two drivers exited $rc"; }
grep -q "differ only in their driver: counting the driver under valgrind" "$T/d.err" || fail "no word of the driver count"
assert_eq "$(node -e '
const l = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse)
  .filter(x => x.kind === "instructions");
const ok = l.filter(x => x.status === "ok" && x.instructions.counted === "driver" &&
  /^valgrind-/.test(x.instructions.source) && x.instructions.ops === 1000 &&
  x.instructions.requests.join() === "1000,2000" && x.instructions.per_op > 50);
console.log(l.length, ok.length);' "$T/d/runs.jsonl")" "4 4" "driver counted lines"
# never flagged; "~" when the two runs a side lie within the 1% threshold of each other, else
# undecided (a driver's count under valgrind moves by up to about 1% between runs: two runs a
# side cannot bound it inside 1% every time)
case $(json_get "$T/d/summary.json" 'const m = this.rows[0].metrics.instructions; [m.counted, m.vs_baseline.d2.verdict].join(" ")') in
    "driver ~" | "driver undecided") ;;
    *) fail "A/A of two driver copies: $(json_get "$T/d/summary.json" 'JSON.stringify(this.rows[0].metrics.instructions.vs_baseline.d2)')" ;;
esac
grep -q "User-space instructions of the driver" "$T/d/report.md" || fail "report.md does not name the driver"
fi

# hardware counters: only where the machine has them
if ! command -v perf > /dev/null 2>&1; then
    echo "skipped: the hardware-counter run: perf is not installed (sh ci/install-deps.sh --test installs linux-perf)"
elif perf stat -e instructions:u true > /dev/null 2>&1 && ! perf stat -e instructions:u true 2>&1 | grep -q "not supported"; then
    rc=0
    "$COMPARE" run --spec "$T/spec.json" --out "$T/hw" > /dev/null 2> "$T/hw.err" || rc=$?
    [ $rc -eq 0 ] || { cat "$T/hw.err" >&2; fail "compare run with hardware counters exited $rc"; }
    assert_eq "$(json_get "$T/hw/summary.json" 'const m = this.rows[0].metrics.instructions;
[m.source, m.event, m.values.plain.median > 100, m.values.work.median > m.values.plain.median].join(" ")')" \
        "counters instructions:u true true" "hardware instructions per op"
else
    echo "skipped: the hardware-counter run: perf stat -e instructions:u does not count here (no hardware counters)"
fi
