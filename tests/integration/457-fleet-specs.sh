#!/bin/sh
# pairbench-test: untimed
# The server fleet users compare, from the specs shipped in specs/, run as shipped from the
# repository root (shortened by --runs/--duration, the io-threads spec on one row of its grid):
# - specs/haproxy-close.json: HAProxy in front of the reference HTTP server, each run starting
#   the backend on {port2} and HAProxy on {port} from a template: every run ok, each rendered
#   configuration with two distinct ports and no placeholder left, the server-close candidate
#   (a backend connection per request) slower at 1 connection, nothing left running;
# - specs/redis-vs-valkey-io-threads.json: redis-server and valkey-server with 2 I/O threads,
#   instructions on: the run exits 0, the timed metrics have verdicts, and the counted channel
#   says why its count is not exact (I/O threads poll for work): either the row is "not
#   countable here", named in report.md, or its count is decided by the runs, not as exact.
# Cost: about 30 s (8 HTTP runs of 0.3 s, 4 redis runs and up to 6 counted runs under valgrind).
. "$(dirname "$0")/../lib.sh"
need haproxy
need redis-server
need valkey-server
need valgrind
need node

# the specs name bin/driver: the build under test stands in for it
mkdir -p "$T/root/bin" "$T/root/specs" "$T/root/grids"
ln -s "$DRIVER" "$T/root/bin/driver"
cp "$TOP"/specs/haproxy-* "$TOP"/specs/redis-vs-valkey-io-threads.json "$T/root/specs/"
cp "$TOP/grids/haproxy.json" "$TOP/grids/redis-io-threads.json" "$T/root/grids/"
cd "$T/root"

rc=0
"$COMPARE" run --spec specs/haproxy-close.json --runs 2 --warmup 0.1 --duration 0.3 \
    --out "$T/hap" > /dev/null 2> "$T/hap.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/hap.err" >&2; fail "haproxy spec exited $rc"; }
n=0
for f in "$T"/hap/server-configs/*; do
    n=$((n + 1))
    ! grep -q "{port" "$f" || fail "$f: a placeholder left"
    ports=$(sed -n 's/.*127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$f" | sort -u | wc -l)
    assert_eq "$ports" 2 "$f: the frontend's and the backend's port"
done
assert_eq "$n" 8 "rendered HAProxy configurations (one per run)"
assert_eq "$(json_get "$T/hap/summary.json" '
const r = this.rows.find(r => r.params.connections === 1), t = r.metrics.throughput;
[r.status, t.values.keepalive.n, t.values["server-close"].n, t.vs_baseline["server-close"].change < -0.2,
 ["regressed", "undecided"].includes(t.vs_baseline["server-close"].verdict)].join(" ")')" \
    "ok 2 2 true true" "1 connection: server-close slower, never ~ or improved"
sleep 0.2
# (no other test runs haproxy, or the driver by the specs' relative path)
! pgrep -x haproxy > /dev/null || fail "HAProxy is still running: $(pgrep -ax haproxy)"
! pgrep -f "^bin/driver serve http" > /dev/null || fail "a backend is still running"

echo '{"name": "io1", "defaults": {"protocol": "redis", "payload": 64, "connections": 16, "workers": 2, "command": "GET", "pipeline": 16}}' > "$T/io1.json"
rc=0
"$COMPARE" run --spec specs/redis-vs-valkey-io-threads.json --grid "$T/io1.json" --runs 2 \
    --warmup 0.1 --duration 0.3 --out "$T/io" > /dev/null 2> "$T/io.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/io.err" >&2; fail "io-threads spec exited $rc"; }
got=$(json_get "$T/io/summary.json" '
const r = this.rows[0], i = r.metrics.instructions, c = i && i.vs_baseline["valkey-8.0-io2"];
const timed = ["throughput", "cpu_efficiency", "p99_us"].every(m => r.metrics[m].vs_baseline["valkey-8.0-io2"].verdict !== "failed");
const why = r.not_countable ? (/poll for work/.test(r.not_countable) ? "not countable" : r.not_countable)
  : c && c.exact && c.exact.rule === "runs" && /--io-threads/.test(JSON.stringify(c.exact)) ? "by the runs" : JSON.stringify(c && c.exact);
[timed, why].join(" ")')
case $got in
    "true not countable")
        grep -q "Not countable here, so judged on their timed metrics alone: .*poll for work" "$T/io/report.md" ||
            fail "report.md does not say the row was not countable" ;;
    "true by the runs") ;;
    *) fail "io-threads: timed verdicts and the counted channel's cause: $got" ;;
esac
echo "io-threads: $got"
