#!/bin/sh
# pairbench-test: untimed
# The output directory on a read-only file system, and a disk that fills up mid-run (a small
# tmpfs): compare refuses or stops with a clear error naming the path and the cause, exits
# non-zero, and the runs it did record are whole lines.
. "$(dirname "$0")/../lib.sh"
need node
[ "$(id -u)" = 0 ] || skip "needs root to mount a small tmpfs"
mkdir -p "$T/ro" "$T/small"
mount -t tmpfs -o ro,size=64k tmpfs "$T/ro" 2>"$T/mount.err" || skip "mount not permitted here: $(cat "$T/mount.err")"
mount -t tmpfs -o size=40k tmpfs "$T/small" || { umount "$T/ro"; skip "mount not permitted here"; }
unmount() { umount "$T/ro" 2>/dev/null || true; umount "$T/small" 2>/dev/null || true; cleanup; }
trap unmount EXIT

cat > "$T/grid.json" <<JSON
{"name": "disk", "defaults": {"protocol": "tcp", "connections": 1, "serve": true},
 "axes": {"payload": [64, 65, 66, 67, 68, 69, 70, 71]}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "baseline"}, {"name": "candidate"}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.02, "duration": 0.1}
JSON

# read-only: refused before anything runs
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/ro/run" > /dev/null 2> "$T/ro.err" || rc=$?
[ $rc -eq 2 ] || [ $rc -eq 3 ] || { cat "$T/ro.err" >&2; fail "read-only: exit $rc, expected 2 or 3"; }
grep -q "Read-only file system" "$T/ro.err" || { cat "$T/ro.err" >&2; fail "read-only: the cause is not named"; }
grep -q "$T/ro/run" "$T/ro.err" || fail "read-only: the path is not named"
grep -q "run failed\|runs recorded" "$T/ro.err" && fail "read-only: runs were measured into nowhere"

# disk full part-way: 40 KiB holds a few runs, not the reports
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/small/run" > /dev/null 2> "$T/full.err" || rc=$?
[ $rc -ne 0 ] || fail "disk full: compare exited 0"
grep -q "No space left on device" "$T/full.err" || { cat "$T/full.err" >&2; fail "disk full: the cause is not named"; }
grep -q "$T/small/run" "$T/full.err" || fail "disk full: the path is not named"
grep -q "no report" "$T/full.err" || fail "disk full: compare claims a report it could not write"
if [ -s "$T/small/run/runs.jsonl" ]; then
    node -e '
const t=require("fs").readFileSync(process.argv[1],"utf8");
const body=t.endsWith("\n")?t:t.slice(0,t.lastIndexOf("\n")+1);
if (body.length !== t.length) throw new Error("a partial line was left in runs.jsonl");
body.trim().split("\n").forEach(l=>JSON.parse(l));' "$T/small/run/runs.jsonl" ||
        fail "disk full: runs.jsonl holds a partial line"
fi
echo "read-only and full disks reported clearly"
