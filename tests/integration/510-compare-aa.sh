#!/bin/sh
# pairbench-test: timed
# Baseline against itself (the same reference TCP echo server command under two names): no
# throughput row may be `regressed` or `improved`. 7 rounds: with the evidence rule (disjoint
# ranges or every paired ratio on one side) a false alarm needs a 2/128 coincidence on top of
# a change past the 5% threshold (one retry). Also: three versions rotate A B C, B C A,
# C A B (the third names the driver explicitly: `<driver> --config FILE`, docs/architecture.md#driver-result).
. "$(dirname "$0")/../lib.sh"
need node

cat > "$T/grid.json" <<JSON
{"name": "tcp-aa", "configs": [{"protocol": "tcp", "connections": 2, "payload": 64, "window": 4}]}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
   {"name": "a-again", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 7, "warmup": 0.1, "duration": 0.3}
JSON
# A load that shifts between runs on a shared machine can still push a row past both the
# threshold and the evidence rule: one retry is allowed, and a second flag fails the test.
aa_ok=0
for attempt in 1 2; do
    rm -rf "$T/aa"
    rc=0
    "$COMPARE" run --spec "$T/spec.json" --out "$T/aa" > /dev/null 2> "$T/stderr" || rc=$?
    [ $rc -eq 0 ] || { cat "$T/stderr" >&2; fail "compare run exited $rc"; }
    assert_eq "$(json_get "$T/aa/summary.json" 'this.rows[0].status')" "ok" "A/A row status"
    v=$(json_get "$T/aa/summary.json" 'this.rows[0].metrics.throughput.vs_baseline["a-again"].verdict')
    case "$v" in
    regressed|improved) echo "attempt $attempt: noise gave the A/A throughput row '$v' on a loaded machine" ;;
    *) aa_ok=1; break ;;
    esac
done
[ $aa_ok -eq 1 ] || fail "A/A throughput verdict was '$v' twice"

# three versions: rotating order, every version compared with the baseline
cat > "$T/spec3.json" <<JSON
{"versions": [
   {"name": "x", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
   {"name": "y", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
   {"name": "z", "driver": "$DRIVER", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 3, "warmup": 0.1, "duration": 0.2}
JSON
rc=0
"$COMPARE" run --spec "$T/spec3.json" --out "$T/xyz" > /dev/null 2> "$T/stderr" || rc=$?
[ $rc -eq 0 ] || { cat "$T/stderr" >&2; fail "compare run (3 versions) exited $rc"; }
assert_eq "$(node -e '
const l=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
console.log(l.map(x=>x.version).join(""));' "$T/xyz/runs.jsonl")" "xyzyzxzxy" "rotation"
