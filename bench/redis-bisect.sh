#!/bin/sh
# compare bisect --metric instructions on Debian's redis source: the 8-commit history of
# `bench/redis-src.sh --history` (commit 6 adds about 120 instructions to every SET, about 2%
# of a SET under valgrind), one SET row at 1 connection, counted under valgrind (3 counted
# rounds, seeds 1-3, as `compare commits --instructions` counts). Prints the answer, the
# steps and the wall time of the whole bisect and of its builds. The builds go through the
# build cache of `compare commits` (a commit built once is never built again) and, where
# ccache is installed, through ccache: the commits differ in one file each.
# Usage: sh bench/redis-bisect.sh   env: REDIS_SRC (bench/redis-src.sh's cache directory),
#        OUT (the bisect's directory; default a temp dir), REQUESTS (5000)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$(mktemp -d /tmp/pairbench-redis-bisect.XXXXXX)}
requests=${REQUESTS:-5000}
t0=$(date +%s)
repo=$(sh "$top/bench/redis-src.sh" --history ${REDIS_SRC:+"$REDIS_SRC"})
build=$(sh "$top/bench/redis-src.sh" --build-cmd)
culprit=$(git -C "$repo" log --format=%H --grep='^SET: ' -1)
mkdir -p "$out"
cat > "$out/grid.json" <<EOT
{"name": "redis-set", "defaults": {"protocol": "redis", "command": "SET", "connections": 1}}
EOT
cat > "$out/spec.json" <<EOT
{"versions": [
   {"name": "good", "server": {"redis": "{tree}/src/redis-server --port {port} --bind 127.0.0.1 --save \"\" --appendonly no --dir {dir}"}},
   {"name": "commit", "server": {"redis": "{tree}/src/redis-server --port {port} --bind 127.0.0.1 --save \"\" --appendonly no --dir {dir}"}}],
 "grids": ["$out/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 3, "requests": $requests, "warmup_requests": 1000, "idle_s": 0.5}}
EOT
t1=$(date +%s)
rc=0
"$top/bin/compare" bisect --repo "$repo" --good HEAD~7 --bad HEAD --build "$build" \
    --spec "$out/spec.json" --metric instructions --out "$out/bisect" > "$out/answer.txt" \
    2> "$out/bisect.err" || rc=$?
t2=$(date +%s)
echo "redis bisect: exit $rc; repository $repo; the commit that adds the cost: $culprit"
cat "$out/answer.txt"
grep -E "step [0-9]+:|skipped|building|reusing" "$out/bisect.err" || true
echo "wall time: repository $((t1 - t0)) s, bisect $((t2 - t1)) s (builds included)"
if [ $rc -eq 0 ] && [ "$(head -n 1 "$out/answer.txt" | cut -d' ' -f1)" = "$culprit" ]; then
    echo "named the commit that adds the cost"
else
    echo "did NOT name $culprit (see $out/bisect.err)"
    exit 1
fi
