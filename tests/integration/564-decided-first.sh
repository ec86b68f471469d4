#!/bin/sh
# pairbench-test: untimed
# The summary leads with what was decided: a comparison whose one decided verdict is counted
# (the reference TCP server against itself with --work 2000: instructions per operation
# regressed on the counted row) and whose timed rows are undecided (1 run a side: a timed
# verdict needs 2, while 2 runs a side can already decide a timed metric, which would lead). In report.md (en and zh), report.html and gate.md the first summary
# sentence names the counted verdict, before any `~` figure; the terminal table shows its
# column; the change chart has an instructions panel. Cost: about 35 s (3 counted rounds a side under valgrind, 6 short timed runs).
. "$(dirname "$0")/../lib.sh"
need valgrind
cd "$T"
# the counted servers run under valgrind, which cannot run an AddressSanitizer build
SRV=$(valgrind_driver)
[ -n "$SRV" ] || skip "no driver build valgrind can run"
cat > spec.json <<JSON
{"versions": [{"name": "base", "server": {"tcp": "$SRV serve tcp --port {port}"}},
              {"name": "worky", "server": {"tcp": "$SRV serve tcp --port {port} --work 2000"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0, "duration": 0.1,
 "instructions": {"enabled": true, "runs": 3, "requests": 500, "warmup_requests": 100,
                  "idle_s": 0.2, "match": {"payload": 64}}}
JSON
echo '{"defaults": {"protocol": "tcp", "connections": 2}, "axes": {"payload": [64, 128, 256]}}' > grid.json
"$COMPARE" run --spec spec.json --out r > run.out 2> run.err || { cat run.err >&2; fail "run failed"; }
assert_eq "$(json_get r/summary.json 'this.rows.filter(r=>r.metrics.instructions).map(r=>r.metrics.instructions.vs_baseline.worky.verdict).join()')" \
    regressed "the counted verdict"
grep -Eq '^row +throughput +cpu_efficiency +p99_us +instructions +allocations +verdict$' run.err ||
    fail "no instructions column on the terminal: $(cat run.err)"
first_md() { sed -n '/^## '"$2"'/,$p' "$1" | sed -n 3p; }
s=$(first_md r/report.md Summary)
case $s in *"64 B · window1 · 2 clients (instructions per operation regressed;"*) ;;
    *) fail "report.md: the first summary sentence does not lead with the counted verdict: $s" ;; esac
"$COMPARE" report r --lang zh > /dev/null
s=$(first_md r/report.md 摘要)
case $s in *"64 B · window1 · 2 clients（每次操作指令数退步；"*) ;;
    *) fail "report.md (zh): the counted verdict is not first: $s" ;; esac
"$COMPARE" report r > /dev/null
node -e '
const h = require("fs").readFileSync(process.argv[1], "utf8");
const s = h.slice(h.indexOf("<section id=\"summary\">"));
const li = s.slice(s.indexOf("<li>"), s.indexOf("</li>"));
const at = li.indexOf("instructions per operation <span class=\"v-regressed\">regressed</span>");
if (at < 0 || at > li.indexOf("<span class=\"v-")) { console.log(li); process.exit(1); }' r/report.html ||
    fail "report.html: the first summary item does not lead with the counted verdict"
# the change chart has a panel for every gated metric measured, instructions included: one
# instructions mark per row, the counted row's regressed
assert_eq "$(grep -o '<g class="fr" data-change="instructions" data-verdict="[a-z~]*"' r/report.html |
    sed 's/.*data-verdict=//' | sort | uniq -c | awk '{print $1 $2}' | tr '\n' ' ')" \
    '2"failed" 1"regressed" ' "change chart: instructions panel"
set +e
"$COMPARE" gate --from r > gate.out 2> gate.err
rc=$?
set -e
assert_eq "$rc" 1 "gate exit (the counted regression)"
b=$(grep -m1 '^- ' r/gate.md)
case $b in *"instructions per operation changed +"*"the cheapest runs of the two sides differ"*) ;;
    *) fail "gate.md: the first item is not the decided counted verdict: $b" ;; esac
echo ok
