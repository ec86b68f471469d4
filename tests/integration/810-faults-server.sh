#!/bin/sh
# pairbench-test: untimed
# Faults of the server: one that never becomes ready (exit 3 after the probe timeout, the
# message names the server command and shows the tail of its stderr, nothing left running),
# one that dies mid-run (that run fails, the row is failed, no server counter of it is
# negative), and a port already taken.
. "$(dirname "$0")/../lib.sh"
need node

cat > "$T/grid.json" <<JSON
{"name": "server-faults", "defaults": {"protocol": "tcp", "connections": 1, "payload": 64}}
JSON

# 1. never ready: it prints a marker on stderr and sleeps without listening
cat > "$T/never.json" <<JSON
{"versions": [
   {"name": "baseline", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
   {"name": "candidate", "server": {"tcp": "sh -c 'echo marker-not-ready-{port} >&2; exec sleep 6002'"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.05, "duration": 0.2, "probe_timeout": 1}
JSON
rc=0
"$COMPARE" run --spec "$T/never.json" --out "$T/never" > /dev/null 2> "$T/never.err" || rc=$?
assert_eq "$rc" 3 "never-ready exit code"
grep -q "server not ready" "$T/never.err" || { cat "$T/never.err" >&2; fail "stderr does not say 'server not ready'"; }
grep -q "marker-not-ready" "$T/never.err" || fail "stderr lacks the tail of the server's stderr"
grep -q "sh -c" "$T/never.err" || fail "stderr does not name the server command"
assert_eq "$(json_get "$T/never/summary.json" 'this.rows[0].status')" "failed" "never-ready row"
grep -q "server not ready" "$T/never/report.md" || fail "report.md does not give the reason"
if pgrep -f 'sleep 6002' > /dev/null; then pkill -f 'sleep 6002'; fail "the unready server was left running"; fi

# 2. dies mid-run: the reference server is killed 0.4 s after it starts, during a 1.5 s run
cat > "$T/dies.json" <<JSON
{"versions": [
   {"name": "baseline", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
   {"name": "candidate", "server": {"tcp": "sh -c '$DRIVER serve tcp --port {port} & p=\$!; sleep 0.4; kill -9 \$p; sleep 30'"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.05, "duration": 1.5, "grace": 2}
JSON
rc=0
"$COMPARE" run --spec "$T/dies.json" --out "$T/dies" > /dev/null 2> "$T/dies.err" || rc=$?
assert_eq "$rc" 3 "server-dies exit code"
got=$(node -e '
const l=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
const c=l.find(x=>x.version==="candidate"), b=l.find(x=>x.version==="baseline");
console.log(b.status, c.status, typeof c.reason === "string" && c.reason.length > 0);' "$T/dies/runs.jsonl")
assert_eq "$got" "ok failed true" "server-dies runs"
assert_eq "$(json_get "$T/dies/summary.json" 'this.rows[0].status')" "failed" "server-dies row"
# a counter of the killed server that went backwards is null, never a negative count
grep -q '"\(ctxsw\|syscr\|syscw\|cpu_s\)":-' "$T/dies/runs.jsonl" && fail "a negative server counter: $(grep -o '"window":{[^}]*}' "$T/dies/runs.jsonl")"

# 3. a port already taken: the reference server refuses clearly and exits non-zero
port=$(free_port)
start_bg holder "$DRIVER" serve tcp --port "$port"
wait_port "$port"
rc=0
"$DRIVER" serve tcp --port "$port" > /dev/null 2> "$T/taken.err" || rc=$?
[ "$rc" -ne 0 ] || fail "a second server on a taken port exited 0"
grep -qi "in use" "$T/taken.err" || { cat "$T/taken.err" >&2; fail "no 'in use' in the message"; }
grep -q "$port" "$T/taken.err" || fail "the message does not name the port"
echo "server faults handled"
