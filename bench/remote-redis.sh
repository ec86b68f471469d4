#!/bin/sh
# Benchmark (not a test: it builds redis twice, a few minutes the first time): does a redis
# build with a known extra cost come out `regressed` on instructions per operation when its
# server runs on a server host? Debian's redis source as two commits (bench/redis-src.sh: as
# shipped, and with a loop of about 120 instructions on every SET, about +2% of a SET), each
# built once in its own worktree beside the repository; the server host is a network
# namespace with OpenSSH's sshd, joined to the client's by a veth pair (tests/netns_lib.sh,
# as the server-host tests make them), compare and the driver run in the client's. Each try is
# one `compare run --instructions` of three versions, shipped, shipped again and the extra
# cost, whose servers start on the host under valgrind; it prints the instructions verdict and
# change of the A/A pair and of the A/B pair, and the counts.
# Targets (issue 54): A/B `regressed` in every try, A/A never flagged.
# Usage: sh bench/remote-redis.sh   (env: TRIES 3, REDIS_SRC the cache of bench/redis-src.sh)
# Needs root (network namespaces), sshd, valgrind and node; removes what it made on exit.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
export PAIRBENCH_TOP="$top"
. "$top/tests/lib.sh"
. "$top/bench/host.sh"
need ip
need ssh
need ssh-keygen
need valgrind
need node
need git
[ -x /usr/sbin/sshd ] || fail "/usr/sbin/sshd not found (run ci/install-deps.sh --test)"
[ "$(id -u)" = 0 ] || fail "needs root (network namespaces)"
tries=${TRIES:-3}
case $tries in '' | *[!0-9]* | 0) fail "TRIES '$tries': expected a whole number above 0" ;; esac

repo=$(sh "$top/bench/redis-src.sh" ${REDIS_SRC:+"$REDIS_SRC"})
build=$(sh "$top/bench/redis-src.sh" --build-cmd)
# wt REV NAME: a worktree of the repository at REV beside it, built once
wt() {
    w=$(dirname "$repo")/wt-$2
    if [ ! -f "$w/.pairbench-built" ]; then
        rm -rf "$w"
        git -C "$repo" worktree prune
        git -C "$repo" worktree add -q --detach "$w" "$1"
        (cd "$w" && sh -c "$build" > "$w.log" 2>&1) || fail "building $1: $(tail -5 "$w.log")"
        touch "$w/.pairbench-built"
    fi
    printf '%s\n' "$w"
}
base=$(wt HEAD~1 base)
extra=$(wt HEAD extra)

S=prbs$$
C=prbc$$
SRV=10.213.2.1
CLI=10.213.2.2
. "$top/tests/netns_lib.sh"
netns_up
mkdir "$T/hosttmp"
netns_sshd "SetEnv TMPDIR=$T/hosttmp"

rsdir='{dir}'
[ -z "${RS_DIR:-}" ] || rsdir=$RS_DIR
rs="--port {port} --bind {host} --protected-mode no --save '' --appendonly no --dir $rsdir"
echo '{"name": "set", "defaults": {"protocol": "redis", "command": "SET", "connections": 1}}' \
    > "$T/grid.json"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "shipped", "server": {"redis": "$base/src/redis-server $rs"}},
              {"name": "shipped-again", "server": {"redis": "$base/src/redis-server $rs"}},
              {"name": "extra", "server": {"redis": "$extra/src/redis-server $rs"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3, "probe_timeout": 20,
 "server_host": "$URL",
 "instructions": {"runs": 3, "requests": 2000, "warmup_requests": 500, "idle_s": 0.5}}
JSON

host_line
echo
echo "| try | A/A verdict | A/A change | A/B verdict | A/B change | instructions/op (shipped, again, extra) |"
echo "|---:|---|---:|---|---:|---|"
i=1
while [ $i -le "$tries" ]; do
    rc=0
    ip netns exec "$C" "$COMPARE" run --spec "$T/spec.json" --instructions --out "$T/r$i" \
        > "$T/r$i.out" 2> "$T/r$i.err" || rc=$?
    [ $rc -eq 0 ] || fail "try $i: compare run exited $rc: $(tail -5 "$T/r$i.err")"
    node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1] + "/summary.json", "utf8"));
const m = s.rows[0].metrics.instructions, pct = x => (x * 100).toFixed(2) + "%";
const vs = v => m.vs_baseline[v] || {};
const med = v => (m.values[v] || {}).median;
console.log("| " + process.argv[2] + " | " + vs("shipped-again").verdict + " | " +
  pct(vs("shipped-again").change) + " | " + vs("extra").verdict + " | " + pct(vs("extra").change) +
  " | " + ["shipped", "shipped-again", "extra"].map(v => med(v).toFixed(0)).join(", ") + " |");
' "$T/r$i" "$i"
    i=$((i + 1))
done
