#!/bin/sh
# pairbench-test: untimed
# SIGINT to compare mid-run: the current run is stopped and not recorded, its server and
# driver are reaped (no orphans), the dataset holds only whole lines, a partial report is
# written and compare exits 3. `--resume` then runs exactly what is missing: one ok line per
# (configuration, version, round), none lost, none duplicated.
. "$(dirname "$0")/../lib.sh"
need node

mark=4321 # a --delay-us value no other test uses, to find our servers
cat > "$T/grid.json" <<JSON
{"name": "resume", "defaults": {"protocol": "tcp", "connections": 1, "window": 1},
 "axes": {"payload": [64, 128, 256]}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port} --delay-us $mark"}},
   {"name": "b", "server": {"tcp": "$DRIVER serve tcp --port {port} --delay-us $mark"}}],
 "grids": ["$T/grid.json"], "runs": 2, "warmup": 0.1, "duration": 0.4}
JSON
"$COMPARE" run --spec "$T/spec.json" --out "$T/out" > "$T/stdout" 2> "$T/stderr" &
cpid=$!
# interrupt once three runs are recorded (bounded wait)
i=0
while [ $i -lt 300 ]; do
    n=$(cat "$T/out/runs.jsonl" 2>/dev/null | wc -l)
    [ "$n" -ge 3 ] && break
    sleep 0.1; i=$((i + 1))
done
[ "$n" -ge 3 ] || { kill "$cpid"; fail "no runs recorded after 30 s"; }
sleep 0.2
kill -INT "$cpid"
rc=0
wait "$cpid" || rc=$?
assert_eq "$rc" 3 "exit code after SIGINT"
grep -q "interrupted" "$T/stderr" || fail "no interruption message on stderr"
[ -s "$T/out/report.md" ] || fail "no partial report"
[ -s "$T/out/summary.json" ] || fail "no partial summary"
sleep 0.2
if pgrep -f "delay-us $mark" > /dev/null; then fail "a server outlived the interrupt"; fi
node -e '
const t=require("fs").readFileSync(process.argv[1],"utf8");
if(!t.endsWith("\n")) throw new Error("runs.jsonl does not end with a whole line");
t.trim().split("\n").forEach(l=>JSON.parse(l));' "$T/out/runs.jsonl" || fail "dataset not consistent"
before=$(wc -l < "$T/out/runs.jsonl")
[ "$before" -lt 12 ] || fail "the run was not interrupted ($before runs recorded)"

rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/out" --resume > /dev/null 2> "$T/stderr2" || rc=$?
[ $rc -eq 0 ] || { cat "$T/stderr2" >&2; fail "resume exited $rc"; }
grep -q "resuming" "$T/stderr2" || fail "resume did not say what it continues"
assert_eq "$(node -e '
const l=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
const c={}; l.filter(x=>x.status==="ok").forEach(x=>{const k=x.config+x.version+x.round; c[k]=(c[k]||0)+1;});
const v=Object.values(c);
console.log(l.length, v.length, v.every(n=>n===1));' "$T/out/runs.jsonl")" "12 12 true" \
    "one ok line per configuration, version and round"
assert_eq "$(json_get "$T/out/summary.json" 'this.rows.map(r=>r.status).join(" ")')" "ok ok ok" \
    "rows complete after resume"
assert_eq "$(json_get "$T/out/meta.json" 'this.resumed.length')" "1" "meta.json notes the resume"
