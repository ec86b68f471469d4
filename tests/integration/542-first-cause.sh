#!/bin/sh
# pairbench-test: untimed
# A failed run's reason starts with its first cause, and report.md, summary.json and the
# terminal say the same: a server killed mid-run is "the server ended during the run with
# signal 9 (Killed)", not only the "held 0 of 1 connections" the driver saw after it; a driver
# short of file descriptors names "Too many open files" beside "held 32 of 60 connections".
# The tallies agree: one failed run in the terminal, report.md and outcome.failed_runs.
# A counted server whose valgrind is killed is diagnosed at once ("the counted server ended
# during the run with signal 9"), not after the 20 s gdbserver timeout, and the row's tally
# counts its failed counted run.
# A full $TMPDIR (a 300 KiB tmpfs, when root) stops the run at its first configuration file:
# exit 3, and report.md says why ("No space left on device") with no run counted as failed.
. "$(dirname "$0")/../lib.sh"
need node

cat > "$T/g1.json" <<JSON
{"name": "g", "defaults": {"protocol": "tcp", "payload": 64, "connections": 1}}
JSON
cat > "$T/g60.json" <<JSON
{"name": "g", "defaults": {"protocol": "tcp", "payload": 64, "connections": 60}}
JSON
cat > "$T/killed.json" <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
  {"name": "b", "server": {"tcp": "sh -c '(sleep 0.6; kill -9 \$\$) & exec $DRIVER serve tcp --port \$0' {port}"}}],
 "grids": ["$T/g1.json"], "runs": 1, "warmup": 0.2, "duration": 1.5}
JSON
cat > "$T/fds.json" <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
  {"name": "b", "driver": "sh -c 'ulimit -n 40; exec $DRIVER \"\$@\"' drv",
   "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["$T/g60.json"], "runs": 1, "warmup": 0.1, "duration": 0.5}
JSON

check() { # spec cause
    rm -rf "$T/out"
    rc=0
    "$COMPARE" run --spec "$T/$1.json" --out "$T/out" > "$T/stdout" 2> "$T/stderr" || rc=$?
    [ "$rc" -eq 3 ] || fail "$1: compare run exited $rc (expected 3, a failed row): $(tail -n 3 "$T/stderr")"
    grep -qF "$2" "$T/stderr" || fail "$1: the terminal does not name '$2': $(grep 'run failed' "$T/stderr")"
    grep -qF "$2" "$T/out/report.md" || fail "$1: report.md does not name '$2'"
    reason=$(json_get "$T/out/summary.json" \
        'this.rows.map(r => (r.failures || []).map(f => f.reason).join(" ")).join(" ")')
    case $reason in *"$2"*) ;; *) fail "$1: summary.json's failure reason lacks '$2': $reason" ;; esac
    failed=$(json_get "$T/out/summary.json" 'this.outcome.failed_runs')
    [ "$failed" = 1 ] || fail "$1: outcome.failed_runs is $failed, expected 1"
    grep -q "1 failed" "$T/out/report.md" || fail "$1: report.md's tally does not say 1 failed"
    grep -q "1 runs failed\|1 failed" "$T/stderr" || fail "$1: the terminal's tally does not say 1 failed"
    echo "$1: $(grep -o 'run failed: .*' "$T/stderr" | head -c 200)"
}
check killed "the server ended during the run with signal 9 (Killed)"
check fds "Too many open files"

# (the sanitized build's driver cannot run under valgrind: a plain one is used, when built)
serve_driver=$(valgrind_driver)
if [ -z "$serve_driver" ]; then
echo "skipped: the counted valgrind-kill case: no plain build of the driver to run under valgrind"
else
cat > "$T/vgkill.json" <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$serve_driver serve tcp --port {port}"}},
  {"name": "b", "server": {"tcp": "sh -c 'echo \$\$ > $T/vgpid; exec $serve_driver serve tcp --port \$0 --work 20000' {port}"}}],
 "grids": ["$T/g1.json"], "runs": 1, "warmup": 0.1, "duration": 0.2,
 "instructions": {"runs": 1, "requests": 20000}}
JSON
rm -rf "$T/out" "$T/vgpid"
# the killer: the counted b server (valgrind running the driver) gets SIGKILL 3 s after it
# starts, from outside its process group (the timed b run writes the file first: wait for
# the counted one, the second). b does about 120,000 instructions of work per request
# (--work 20000; a delay would pass in the counted runs' virtual clock), so under valgrind
# its 20000 counted requests last far longer than 3 s: the kill lands inside them however
# fast the host (a sanitized CI pass once finished them first and exited 0)
( n=0; last=
  while [ $n -lt 600 ]; do
      p=$(cat "$T/vgpid" 2> /dev/null || true)
      if [ -n "$p" ] && [ "$p" != "$last" ]; then
          last=$p
          if grep -q valgrind "/proc/$p/cmdline" 2> /dev/null; then sleep 3; kill -9 "$p" 2> /dev/null; exit 0; fi
      fi
      sleep 0.1; n=$((n + 1))
  done ) &
killer=$!
rc=0
start=$(date +%s)
"$COMPARE" run --spec "$T/vgkill.json" --out "$T/out" > "$T/stdout" 2> "$T/stderr" || rc=$?
took=$(($(date +%s) - start))
wait "$killer" || true
[ "$rc" -eq 3 ] || fail "valgrind kill: compare run exited $rc (expected 3): $(tail -n 3 "$T/stderr")"
grep -q "the counted server ended during the run with signal 9" "$T/out/report.md" ||
    fail "valgrind kill: report.md lacks the first cause: $(grep -i 'failed run' "$T/out/report.md")"
failed=$(json_get "$T/out/summary.json" 'this.outcome.failed_runs')
counted=$(json_get "$T/out/summary.json" 'this.rows[0].runs.counted.failed')
[ "$failed" -ge 1 ] && [ "$counted" -ge 1 ] ||
    fail "valgrind kill: failed_runs $failed, counted failed $counted (expected at least 1 each)"
grep -q "$failed failed" "$T/out/report.md" || fail "valgrind kill: report.md's tally does not say $failed failed"
grep -q "gdbserver .* did not answer" "$T/out/report.md" && fail "valgrind kill: the reason is the dump timeout"
echo "valgrind kill: diagnosed, $failed failed runs in every tally, whole run ${took}s"
fi

if [ "$(id -u)" != 0 ]; then
    echo "skipped: the full \$TMPDIR case: mounting a small tmpfs needs root"
    exit 0
fi
mkdir -p "$T/small"
mount -t tmpfs -o size=300k tmpfs "$T/small" || fail "cannot mount a tmpfs on $T/small"
trap 'umount "$T/small" 2> /dev/null || true; cleanup' EXIT
dd if=/dev/zero of="$T/small/fill" bs=1k count=400 2> /dev/null || true
rm -rf "$T/out"
rc=0
TMPDIR="$T/small" "$COMPARE" run --spec "$T/killed.json" --out "$T/out" > "$T/stdout" 2> "$T/stderr" || rc=$?
[ "$rc" -eq 3 ] || fail "full TMPDIR: compare run exited $rc (expected 3): $(tail -n 3 "$T/stderr")"
grep -q "No space left on device" "$T/stderr" || fail "full TMPDIR: the terminal gives no errno: $(cat "$T/stderr")"
grep -q "The run stopped before its plan was done: .*No space left on device" "$T/out/report.md" ||
    fail "full TMPDIR: report.md does not say why the run stopped"
[ "$(json_get "$T/out/summary.json" 'this.outcome.failed_runs')" = 0 ] || fail "full TMPDIR: failed_runs is not 0"
grep -q "0 of 2 runs ok, 0 failed" "$T/out/report.md" || fail "full TMPDIR: report.md's tally: $(grep 'runs ok' "$T/out/report.md")"
echo "full TMPDIR: $(grep -o 'cannot write.*' "$T/stderr" | head -c 160)"
