#!/bin/sh
# pairbench-test: timed
# A rate sweep: a grid axis "rate" of percentages of the saturation rate. Before the schedule
# compare measures that rate once per configuration (one short closed-loop run of each version;
# the percentages of both rows are of the slower version's throughput), keeps it in
# meta.json's "saturation", and runs each row open loop at that percentage of it, rounded to
# whole operations per second; the configuration keeps "25%" in its parameters, so its id does
# not move with the measured rate. Bad percentages exit 2 naming the key path and the value.
. "$(dirname "$0")/../lib.sh"
need node

write_grid "$T/grid.json" sweep '"protocol": "tcp", "connections": 1, "payload": 64' \
    '"rate": ["10%", "20%"]'
write_spec "$T/spec.json" tcp "$T/grid.json" '"runs": 1, "warmup": 0.2, "duration": 1' \
    baseline "$DRIVER serve tcp --port {port} --payload 64" \
    candidate "$DRIVER serve tcp --port {port} --payload 64 --work 20000"
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/out" > "$T/stdout" 2> "$T/stderr" || rc=$?
[ $rc -le 1 ] || { cat "$T/stderr" >&2; fail "compare run exited $rc"; }
sat=$(json_get "$T/out/meta.json" 'const s=Object.values(this.saturation); s.length === 1 ? s[0].rate : -1')
cl=$(json_get "$T/out/meta.json" 'const s=Object.values(this.saturation)[0].closed_loop; [s.baseline > 0, s.candidate > 0, Object.values(this.saturation)[0].rate === Math.min(s.baseline, s.candidate)].join(" ")')
assert_eq "$cl" "true true true" "saturation: both versions measured, the slower one's rate kept"
assert_eq "$(json_get "$T/out/meta.json" 'this.configs.map(c => c.params.rate).join(" ")')" "10% 20%" \
    "configurations keep their percentages"
assert_eq "$(node -e '
const sat=Number(process.argv[2]);
const lines=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
const want={"10%": Math.round(sat * 0.1), "20%": Math.round(sat * 0.2)};
const meta=JSON.parse(require("fs").readFileSync(process.argv[3],"utf8"));
const pct=Object.fromEntries(meta.configs.map(c => [c.id, c.params.rate]));
console.log(lines.length === 4 && lines.every(l => l.result && l.result.rate &&
    l.result.rate.target === want[pct[l.config]]));' "$T/out/runs.jsonl" "$sat" "$T/out/meta.json")" \
    true "every run open loop at its percentage of $sat/s"
grep -q "of saturation" "$T/out/report.md" || fail "report.md labels lack the percentage"
# the knee in words, for each version: where its P99 passes 1 ms, or that it never does
grep -A2 "## Latency against load" "$T/out/report.md" | grep -q "P99 \(passes 1 ms at [0-9.]*% of saturation\|stays under 1 ms up to the highest rate\) for baseline.*for candidate" ||
    fail "report.md lacks the knee: $(cat "$T/out/report.md")"
grep -q "Saturation rate $(printf '%.0f' "$sat") ops/s (closed loop: baseline" "$T/out/report.md" ||
    fail "report.md lacks the saturation rate $sat: $(grep -A6 'against load' "$T/out/report.md")"

# the ids do not depend on the measured rate: each is the hash of the grid's parameters,
# percentage and all (sorted keys, compact, without host and port)
assert_eq "$(node -e '
const c=require("crypto"), meta=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));
const canon=v => Array.isArray(v) ? "[" + v.map(canon).join(",") + "]" :
    v && typeof v === "object" ? "{" + Object.keys(v).sort().map(k => JSON.stringify(k) + ":" + canon(v[k])).join(",") + "}" :
    JSON.stringify(v);
console.log(meta.configs.every(m => { const p=Object.assign({}, m.params);
    for (const k of ["host", "port", "warmup", "duration"]) delete p[k];
    return c.createHash("sha256").update(canon(p)).digest("hex").slice(0, 8) === m.id; }));' "$T/out/meta.json")" \
    true "ids are the hashes of the parameters with their percentages"

# bad values
for bad in '"0%"' '"150%"' '"50 %"' '"-5%"' '"half"'; do
    echo "{\"defaults\": {\"protocol\": \"tcp\"}, \"axes\": {\"rate\": [\"10%\", $bad]}}" > "$T/bad.json"
    rc=0
    "$COMPARE" run --spec "$T/spec.json" --grid "$T/bad.json" --out "$T/bad" > /dev/null 2> "$T/bad.err" || rc=$?
    assert_eq "$rc" 2 "rate $bad"
    grep -qF 'axes.rate[1]' "$T/bad.err" && grep -qF "$bad" "$T/bad.err" || fail "message: $(cat "$T/bad.err")"
done
echo "ok: a rate sweep of percentages of the saturation rate"
