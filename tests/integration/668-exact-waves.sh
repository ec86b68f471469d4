#!/bin/sh
# pairbench-test: timed
# Exact counts at more than one connection (issue 35): a counted run at 8 connections sends
# in lockstep waves (the driver's --lockstep, one worker: one request on every connection,
# the next wave when all 8 replies are in) and the interposer hands each wave to the server's
# event loop at once, ordered by descriptor (PAIRBENCH_WAVE, preload/wake.c), leaving its own
# polling out of the count. Proves, on redis-server A/A under valgrind: each round's two counts
# are identical to 0.01% (without waves they were 0.08-0.3% apart at 50 connections,
# docs/results/counted-cost.md, "Waves at 50 connections"), the record says exact with no
# reason, and the event loop ran one iteration per wave (window_waits: 100 waves of 8, plus
# the connect and close); a driver the spec names without --lockstep keeps the old record:
# not exact, the reason naming it. Cost: about 40 s on 2 shared cores. Timed lane: the waves
# keep the count exact only while the driver sends each wave promptly; a sanitized driver
# beside two other tests once stalled long enough that the server's timers ran in a
# different share of the window (0.09% apart, the same 103 waits).
. "$(dirname "$0")/../lib.sh"
need redis-server
need valgrind
need node

srv="redis-server --port {port} --bind 127.0.0.1 --save '' --appendonly no --dir {dir}"
echo '{"name": "set", "defaults": {"protocol": "redis", "command": "SET", "keyspace": 100000, "connections": 8}}' > "$T/grid.json"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "a", "server": {"redis": "$srv"}}, {"name": "b", "server": {"redis": "$srv"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 2, "requests": 800, "warmup_requests": 160, "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/r" > /dev/null 2> "$T/r.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/r.err" >&2; fail "compare run --instructions (redis A/A, 8 connections) exited $rc"; }
rounds() { # dir -> per round: "round a-per-op b-per-op spread% exact reason waits..."
    node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
for (const round of [...new Set(l.map(x => x.round))].sort()) {
  const p = l.filter(x => x.round === round);
  if (p.length !== 2 || p.some(x => x.status !== "ok")) { console.log(round, "failed", p.map(x => x.reason).join()); continue; }
  const v = p.map(x => x.instructions.per_op), d = Math.abs(v[0] - v[1]) / v[0] * 100;
  const f = p.map(x => x.instructions.fixed);
  console.log(round, d <= 0.01 ? "same" : "apart " + d.toFixed(4) + "% (" + v.join(" / ") + ")",
    f.every(x => x.exact === true) ? "exact" : "not-exact", f.map(x => x.reason === null ? "-" : x.reason).join(" | "),
    p.map(x => x.instructions.window_waits).join(" "));
}' "$1"
}
rounds "$T/r" > "$T/r.lines"
while read -r round same exact rest; do
    [ "$same" = same ] || fail "round $round: the two versions' counts are $same $exact $rest"
    [ "$exact" = exact ] || fail "round $round: not recorded exact: $rest"
    case $rest in
    "- | - "*) ;;
    *) fail "round $round: a reason recorded for an exact count: $rest" ;;
    esac
    for w in ${rest#- | - }; do
        [ "$w" -ge 100 ] && [ "$w" -le 106 ] ||
            fail "round $round: $w event-loop iterations in the window, expected 100 waves (+ connect/close)"
    done
done < "$T/r.lines"
assert_eq "$(wc -l < "$T/r.lines" | tr -d ' ')" 2 "two counted rounds"

# a driver without --lockstep (a wrapper that hides the flag from --help): no waves, the old
# record, its reason naming the driver
cat > "$T/old-driver" <<SH
#!/bin/sh
case "\$*" in *--help*) "$DRIVER" --help | grep -v -- --lockstep ;; *) exec "$DRIVER" "\$@" ;; esac
SH
chmod +x "$T/old-driver"
sed "s#\"server\": {\"redis\"#\"driver\": \"$T/old-driver\", \"server\": {\"redis\"#g; s/\"runs\": 2,/\"runs\": 1,/" \
    "$T/spec.json" > "$T/old.json"
rc=0
"$COMPARE" run --spec "$T/old.json" --out "$T/o" > /dev/null 2> "$T/o.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/o.err" >&2; fail "compare run (driver without --lockstep) exited $rc"; }
rounds "$T/o" | grep -q "not-exact 8 connections: the order in which the server sees their requests.*without --lockstep" ||
    fail "driver without --lockstep: $(rounds "$T/o")"
echo ok
