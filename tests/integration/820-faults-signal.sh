#!/bin/sh
# pairbench-test: untimed
# SIGINT and SIGTERM to compare mid-run: the current run is stopped, every child is reaped
# (no orphaned server or driver), runs.jsonl holds only whole lines, a partial report is
# written; `--resume` then completes the dataset with no lost and no duplicated run.
. "$(dirname "$0")/../lib.sh"
need node

cat > "$T/grid.json" <<JSON
{"name": "signals", "defaults": {"protocol": "tcp", "connections": 1}, "axes": {"payload": [64, 65, 66]}}
JSON
# --workers 3 --delay-us 3 marks this test's servers for the orphan check
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "baseline", "server": {"tcp": "$DRIVER serve tcp --port {port} --workers 3 --delay-us 3"}},
   {"name": "candidate", "server": {"tcp": "$DRIVER serve tcp --port {port} --workers 3 --delay-us 3"}}],
 "grids": ["$T/grid.json"], "runs": 3, "warmup": 0.05, "duration": 0.4}
JSON
marker='serve tcp --port [0-9]* --workers 3 --delay-us 3'

for sig in INT TERM; do
    out="$T/out-$sig"
    "$COMPARE" run --spec "$T/spec.json" --out "$out" > "$T/$sig.out" 2> "$T/$sig.err" &
    cpid=$!
    i=0
    while [ "$(cat "$out/runs.jsonl" 2>/dev/null | wc -l)" -lt 4 ] && [ $i -lt 300 ]; do
        sleep 0.05; i=$((i + 1))
    done
    [ $i -lt 300 ] || { kill -9 $cpid; fail "$sig: no runs recorded in 15 s"; }
    sleep 0.2  # land inside a run
    kill -$sig $cpid
    rc=0; wait $cpid || rc=$?
    case $rc in 3|130|143) ;; *) cat "$T/$sig.err" >&2; fail "$sig: compare exited $rc, expected 3 (or 130/143)";; esac
    sleep 0.2
    if pgrep -f "$marker" > /dev/null; then pkill -f "$marker"; fail "$sig: a server was left running"; fi
    if pgrep -f "$out/.*config" > /dev/null; then fail "$sig: a driver was left running"; fi
    # whole lines only, and a partial report
    n1=$(node -e '
const t=require("fs").readFileSync(process.argv[1],"utf8");
if (!t.endsWith("\n")) throw new Error("runs.jsonl does not end with a newline");
const l=t.trim().split("\n").map(JSON.parse); console.log(l.length);' "$out/runs.jsonl") ||
        fail "$sig: runs.jsonl is not whole JSON lines"
    [ "$n1" -ge 4 ] && [ "$n1" -lt 18 ] || fail "$sig: $n1 runs recorded before the signal, expected 4..17"
    [ -s "$out/report.md" ] || fail "$sig: no partial report.md"
    [ -s "$out/meta.json" ] || fail "$sig: no meta.json"

    "$COMPARE" run --spec "$T/spec.json" --out "$out" --resume > /dev/null 2> "$T/$sig.resume.err" ||
        { cat "$T/$sig.resume.err" >&2; fail "$sig: --resume exited $?"; }
    got=$(node -e '
const l=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
const ok=l.filter(x=>x.status==="ok"), seen={};
let dup=0; for (const x of ok) { const k=x.config+"/"+x.version+"/"+x.round; if (seen[k]) dup++; seen[k]=1; }
const per={}; for (const k of Object.keys(seen)) { const c=k.split("/")[0]; per[c]=(per[c]||0)+1; }
console.log(Object.keys(seen).length, dup, Object.values(per).join(","));' "$out/runs.jsonl")
    assert_eq "$got" "18 0 6,6,6" "$sig: after --resume (unique ok runs, duplicates, per config)"
    assert_eq "$(json_get "$out/summary.json" 'this.rows.map(r=>r.status).join(",")')" "ok,ok,ok" "$sig: rows after resume"
done
echo "signals: stopped cleanly, resumed completely"
