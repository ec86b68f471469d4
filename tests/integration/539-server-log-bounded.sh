#!/bin/sh
# pairbench-test: untimed
# A server that floods its output without pause leaves at most the log cap on disk: compare's
# capping process keeps the first and last 64 KiB of each server log with the count of what it
# dropped between them, and the run itself is measured as usual. Without the cap the same
# server wrote hundreds of megabytes per second into the run's scratch directory.
. "$(dirname "$0")/../lib.sh"
need node

mkdir -p "$T/tmp"
write_grid "$T/grid.json" flood '"protocol": "tcp", "payload": 64, "connections": 2'
write_spec "$T/spec.json" tcp "$T/grid.json" '"runs": 1, "warmup": 0.2, "duration": 1.5' \
    quiet "$DRIVER serve tcp --port {port}" \
    flood "sh -c 'yes pairbench-flood-line & exec $DRIVER serve tcp --port \$0' {port}"

# watch the largest server log while compare runs
( max=0
  while [ ! -f "$T/done" ]; do
      for f in "$T"/tmp/pairbench-run.*/server-*.log; do
          [ -f "$f" ] || continue
          s=$(stat -c %s "$f" 2>/dev/null || echo 0)
          [ "$s" -gt "$max" ] && max=$s && echo "$max" > "$T/max"
      done
      sleep 0.05
  done ) &
watcher=$!

rc=0
TMPDIR="$T/tmp" "$COMPARE" run --spec "$T/spec.json" --out "$T/out" > "$T/stdout" 2> "$T/stderr" || rc=$?
touch "$T/done"
wait "$watcher"
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || fail "compare run exited $rc: $(tail -n 5 "$T/stderr")"

max=$(cat "$T/max" 2>/dev/null || echo 0)
cap=$((64 * 1024 * 2 + 200))
echo "largest server log seen during the run: $max bytes (cap $cap)"
[ "$max" -gt 0 ] || fail "no server log was seen during the run"
[ "$max" -le "$cap" ] || fail "a server log grew to $max bytes, over the cap of $cap"
n_ok=$(grep -c '"status": *"ok"' "$T/out/runs.jsonl" || true)
[ "$n_ok" -ge 2 ] || fail "expected both runs ok, got $n_ok: $(cat "$T/out/runs.jsonl" | head -c 600)"
echo "runs ok: $n_ok"
