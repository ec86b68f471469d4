#!/bin/sh
# pairbench-test: timed
# Adaptive confirmation with a cap fixed in advance (--confirm N): a borderline row gets
# extra alternating rounds two at a time up to the cap; a clear row gets none; meta.json and
# the report say so. The measurements come from a scripted driver (any program honouring
# the driver contract may be a version's driver) so the verdicts are known in advance:
#   payload 64:  baseline 100 k/s; candidate 92, 120, 80, then 92 ... → unstable, borderline
#   payload 128: baseline 100 k/s; candidate 50 → regressed with disjoint ranges, clear
# Five planned runs a side: disjoint ranges at 5 runs (p 2/252) pass the row's family bound
# (0.05 over its 5 gated timed metrics); at 3 runs (p 2/20) nothing is clear from planned rounds.
. "$(dirname "$0")/../lib.sh"
need node

cat > "$T/scripted-driver.sh" <<'SH'
#!/bin/sh
# scripted-driver.sh VERSION --config FILE: prints a driver result with a throughput taken
# from a per-(version, payload) sequence; each call advances its counter.
ver=$1; cfg=$3
payload=$(sed -n 's/.*"payload": *\([0-9]*\).*/\1/p' "$cfg" | head -n 1)
dir=$(dirname "$0")
n=$(cat "$dir/count-$ver-$payload" 2>/dev/null || echo 0)
echo $((n + 1)) > "$dir/count-$ver-$payload"
case "$ver-$payload-$n" in
    candidate-64-0) tp=92000 ;; candidate-64-1) tp=120000 ;; candidate-64-2) tp=80000 ;;
    candidate-64-*) tp=92000 ;;
    candidate-128-*) tp=$((50000 + n)) ;;
    candidate-256-0) tp=130000 ;; candidate-256-*) tp=$((88000 + n)) ;;
    *) tp=$((100000 + n)) ;;
esac
printf '{"schema":"pairbench.result/1","protocol":"tcp","transport":"tcp","config":{},'
printf '"ops":%d,"batches":%d,"elapsed_s":1.0,"throughput":%d,"unit":"round trips/s",' $tp $tp $tp
printf '"latency_us":{"p50":50,"p90":60,"p99":80,"p999":90,"max":100,"mean":52,"samples":%d},' $tp
printf '"errors":{"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0},'
printf '"cpu":{"user_s":0.5,"sys_s":0.5,"percent":100},"rss_peak_kib":4096,"build":{}}\n'
SH
chmod +x "$T/scripted-driver.sh"
cat > "$T/grid.json" <<JSON
{"name": "confirm", "defaults": {"protocol": "tcp", "host": "127.0.0.1", "port": 9}, "axes": {"payload": [64, 128]}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "baseline", "driver": "$T/scripted-driver.sh baseline"},
              {"name": "candidate", "driver": "$T/scripted-driver.sh candidate"}],
 "grids": ["$T/grid.json"], "runs": 5, "warmup": 0, "duration": 0.1}
JSON

"$COMPARE" run --spec "$T/spec.json" --confirm 4 --out "$T/out" > /dev/null 2> "$T/err" ||
    { cat "$T/err" >&2; fail "compare run --confirm 4 exited $?"; }
got=$(node -e '
const fs=require("fs"), d=process.argv[1];
const l=fs.readFileSync(d+"/runs.jsonl","utf8").trim().split("\n").map(JSON.parse);
const m=JSON.parse(fs.readFileSync(d+"/meta.json","utf8"));
const s=JSON.parse(fs.readFileSync(d+"/summary.json","utf8"));
const id=p=>s.rows.find(r=>r.params.payload===p).config;
const rounds=p=>Math.max(...l.filter(x=>x.config===id(p)).map(x=>x.round));
const c=m.confirmation;
const order=l.filter(x=>x.config===id(64)&&x.round>5).map(x=>x.round+x.version[0]).join(",");
console.log([rounds(64), rounds(128), c.max_extra_rounds, c.rows[id(64)], c.rows[id(128)]===undefined,
  order, s.rows.find(r=>r.params.payload===128).metrics.throughput.vs_baseline.candidate.verdict].join(" "));
' "$T/out")
assert_eq "$got" "9 5 4 4 true 6c,6b,7b,7c,8c,8b,9b,9c regressed" "rounds, cap, order"
grep -q "Adaptive confirmation (at most 4 extra rounds per row" "$T/out/report.md" ||
    fail "report.md does not state the confirmation"
grep -q "got 4 extra rounds" "$T/out/report.md" || fail "report.md does not name the row's extra rounds"
grep -q "judged on the median of its per-round ratios, throughput's given here" "$T/out/report.md" ||
    fail "report.md does not say what a confirmed row's verdict is judged on"
"$COMPARE" report "$T/out" --lang zh > /dev/null
grep -q "自适应确认" "$T/out/report.md" || fail "the Chinese report does not state the confirmation"

# A row that the planned rounds cannot judge (one wild candidate run the wrong way: the
# moderated test's variance is large at 3 runs) gets extra rounds; with them the paired test
# of the per-round log ratios finds the −12% within the look's budget (2/252 ÷ 40 before the
# cap, 3/4 of 2/252 at it): the wild round weighs less with every round, and 21 runs a side
# decide it, two before the cap.
rm -f "$T"/count-*
cat > "$T/grid256.json" <<JSON
{"name": "confirm", "defaults": {"protocol": "tcp", "host": "127.0.0.1", "port": 9, "payload": 256}}
JSON
sed -e "s#$T/grid.json#$T/grid256.json#" -e 's#"runs": 5#"runs": 3#' "$T/spec.json" > "$T/spec256.json"
"$COMPARE" run --spec "$T/spec256.json" --out "$T/plan256" > /dev/null 2>&1 || fail "planned-only run exited $?"
assert_eq "$(json_get "$T/plan256/summary.json" 'this.rows[0].metrics.throughput.vs_baseline.candidate.verdict')" \
    undecided "planned rounds only"
rm -f "$T"/count-*
"$COMPARE" run --spec "$T/spec256.json" --confirm 20 --out "$T/c256" > /dev/null 2> "$T/err3" ||
    { cat "$T/err3" >&2; fail "compare run --confirm 20 exited $?"; }
got=$(json_get "$T/c256/summary.json" '(c => (n => [c.verdict, c.evidence.p <= c.evidence.alpha, n, Math.abs(c.evidence.alpha - (n < 23 ? 2 / 252 / 40 : 2 / 252 * 0.75)) < 1e-12].join(" "))(this.rows[0].metrics.throughput.values.candidate.n))(this.rows[0].metrics.throughput.vs_baseline.candidate)')
assert_eq "$got" "regressed true 21 true" "confirmed row: verdict, p within the look's budget, runs, the look's budget"
# the report gives what the verdict used: the median per-round change and the p
# every change as the one formatter writes it (util/fmt.h): two decimals, U+2212 for minus
fmtpct='(r => (r >= 0 ? "+" : "\u2212") + Math.abs(r * 100).toFixed(2) + "%")'
pm=$(json_get "$T/c256/summary.json" '((this.rows[0].metrics.throughput.vs_baseline.candidate.paired_ratio.median - 1) * 100).toFixed(1)')
awk -v c="$pm" 'BEGIN {exit !(c <= -10 && c >= -14)}' || fail "confirmed row's paired change $pm%, expected about -12%"
pm=$(json_get "$T/c256/summary.json" "$fmtpct(this.rows[0].metrics.throughput.vs_baseline.candidate.paired_ratio.median - 1)")
# and the 90% interval of that change (paired_ratio lo..hi), which kept it going
iv=$(json_get "$T/c256/summary.json" "(p => [p.lo, p.hi].map(r => $fmtpct(r - 1)).join(\", \"))(this.rows[0].metrics.throughput.vs_baseline.candidate.paired_ratio)")
pe=$(json_get "$T/c256/summary.json" 'this.rows[0].metrics.throughput.vs_baseline.candidate.evidence.p')
line=$(grep -o "got 18 extra rounds (throughput: the median per-round change \[its 90% interval\], and the p of the moderated paired test: [^)]*)" "$T/c256/report.md")
case $line in *": $pm [$iv], p "*) ;;
    *) fail "report.md does not give the confirmed row's paired change ($pm [$iv]): $line" ;; esac
# the p as printed (two significant digits) is the evidence's p
awk -v a="${line##*, p }" -v b="$pe" 'BEGIN { a += 0; exit !(a > 0 && (a - b) / b < 0.06 && (b - a) / b < 0.06) }' ||
    fail "report.md's p (${line##*, p }) is not the evidence's ($pe)"
echo "confirmed row: $got"

# The gate stops its extra rounds once a row is decided regressed: its exit 1 cannot be taken
# back by any round of another row. Payload 128 is regressed on disjoint ranges after the
# planned rounds, so payload 64, borderline, gets none of the 4 it would get from `run`.
rm -f "$T"/count-*
rc=0
"$COMPARE" gate --spec "$T/spec.json" --confirm 4 --no-instructions --no-pin --out "$T/gate" > /dev/null 2> "$T/err4" || rc=$?
assert_eq "$rc" 1 "gate exit with a decided regression"
grep -q "is regressed: the gate fails whatever the other rows show; no further rounds" "$T/err4" ||
    { cat "$T/err4" >&2; fail "the gate did not say why it stopped"; }
got=$(node -e '
const fs=require("fs"), d=process.argv[1];
const l=fs.readFileSync(d+"/runs.jsonl","utf8").trim().split("\n").map(JSON.parse);
const m=JSON.parse(fs.readFileSync(d+"/meta.json","utf8"));
console.log(Math.max(...l.map(x=>x.round)), m.confirmation.stopped_at_regression);
' "$T/gate")
assert_eq "$got" "5 tcp · 128 B · window1 · 1 client" "gate: planned rounds only, stopped at the regressed row"

# without --confirm nothing is added, and the report says nothing about it
rm -f "$T"/count-*
"$COMPARE" run --spec "$T/spec.json" --out "$T/plain" > /dev/null 2> "$T/err2" || fail "plain run exited $?"
assert_eq "$(json_get "$T/plain/meta.json" 'String(this.confirmation)')" "undefined" "no confirmation record"
grep -q "Adaptive confirmation" "$T/plain/report.md" && fail "report mentions a confirmation that did not happen"
echo "adaptive confirmation: capped, alternating, recorded and reported"
