#!/bin/sh
# pairbench-test: untimed
# compare calibrate on the reference TCP server (driver serve tcp), short windows: an A/A run
# of the baseline against itself writes calibration.json, calibration.md and calibration.html;
# the three and stderr report the same false-alarm count, which is the number of A/A flags
# in calibration.json; the optional metrics the runs measured (server CPU; instructions/op
# with the counted channel on, when valgrind is there) are calibrated too; the page loads
# clean in headless Chromium (no error, no request, no script, one chart of the detectable
# change) and gives a real screenshot; --lang zh writes both files in Chinese (valid UTF-8).
# Cost: about 60 s on 2 shared cores (most of it the counted runs under valgrind).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/html_lib.sh"
cd "$T"
cat > grid.json <<'JSON'
{"name": "calibrate", "defaults": {"protocol": "tcp", "connections": 1, "workers": 1},
 "axes": {"payload": [64, 1024]}}
JSON
# with valgrind the counted-cost channel is on: 2 counted runs per version and configuration
# (the server counted is a build valgrind can run: the plain one on the sanitized pass)
instr="" iflag="" srvdrv=$DRIVER
if command -v valgrind > /dev/null && [ -n "$(valgrind_driver)" ]; then
    instr=', "instructions": {"runs": 2, "requests": 300, "warmup_requests": 100, "idle_s": 0.2}'
    iflag=--instructions
    srvdrv=$(valgrind_driver)
else
    echo "skipped: instructions/op in the calibration (no valgrind, or no build it can run)"
fi
cat > spec.json <<JSON
{"versions": [
  {"name": "ref", "driver": "$DRIVER", "server": {"tcp": "$srvdrv serve tcp --port {port}"}}],
 "grids": ["grid.json"], "runs": 3, "warmup": 0.1, "duration": 0.3, "grace": 10, "probe_timeout": 20$instr}
JSON

"$COMPARE" calibrate --spec spec.json $iflag --out cal > cal.out 2> cal.err ||
    { cat cal.err >&2; fail "calibrate exited $?"; }
for f in calibration.json calibration.md calibration.html; do
    [ -s "cal/$f" ] || fail "no cal/$f"
done
assert_eq "$(json_get cal/calibration.json '[this.schema, this.baseline, this.rows.length,
    this.rows.every(r => ["throughput", "p99_us"].every(m => r.metrics[m].pairs === 3 &&
        r.metrics[m].detectable_pct >= 0 && r.metrics[m].floor_pct >= 5))].join(" ")')" \
    "pairbench.calibration/1 ref 2 true" "calibration.json"
assert_eq "$(json_get cal/meta.json 'this.versions.map(v => v.name).join(",")')" "ref,ref-again" \
    "A/A versions"

# the false-alarm count: flags in the JSON = the count field = stderr = .md = .html
n=$(json_get cal/calibration.json 'this.rows.reduce((a, r) => a + Object.values(r.metrics).filter(m => m.false_alarm).length, 0)')
assert_eq "$(json_get cal/calibration.json 'this.false_alarms')" "$n" "false_alarms vs the flags"
grep -q "^compare calibrate: $n false alarms\{0,1\}; floors: cal/calibration.json$" cal.err ||
    fail "stderr does not report $n false alarms: $(cat cal.err)"
grep -q "^$n false alarms\{0,1\} in this A/A run\.$" cal/calibration.md ||
    fail "calibration.md does not report $n false alarms"
grep -q "<b>$n false alarms\{0,1\}</b> in this A/A run" cal/calibration.html ||
    fail "calibration.html does not report $n false alarms"
assert_eq "$(grep -c '<td class="v-regressed">false alarm</td>' cal/calibration.html)" "$n" \
    "false alarms marked in the table"
assert_eq "$(grep -c '| throughput |' cal/calibration.md)" 2 "throughput rows in calibration.md"
# the optional metrics the runs measured: server CPU (pairbench started the server) and,
# with the channel on, instructions/op from the counted runs
assert_eq "$(json_get cal/calibration.json 'this.rows.map(r => [r.metrics.server_cpu_us.pairs,
    r.metrics.instructions ? r.metrics.instructions.pairs : "-"].join("/")).join(" ")')" \
    "$(if [ -n "$iflag" ]; then echo "3/2 3/2"; else echo "3/- 3/-"; fi)" "optional metrics calibrated"
assert_eq "$(grep -c '| server_cpu_us |' cal/calibration.md)" 2 "server CPU rows in calibration.md"
# and the server's wake-ups, faults and migrations (software events of every timed run)
assert_eq "$(grep -c '| context_switches |' cal/calibration.md)" 2 "context switch rows in calibration.md"
# calibration.html holds one line per metric calibration.json holds for the row
rows=$(json_get cal/calibration.json 'Object.keys(this.rows[1].metrics).length')
if [ -n "$iflag" ]; then
    # instructions, and allocations where they were counted under valgrind
    assert_eq "$(json_get cal/calibration.json 'this.rows[1].metrics.instructions ? 1 : 0')" 1 \
        "instructions calibrated"
    assert_eq "$(grep -c '| instructions |' cal/calibration.md)" 2 "instructions rows in calibration.md"
    grep -q '<td>Server instructions per operation (counted)</td>' cal/calibration.html ||
        fail "calibration.html has no instructions line"
fi
grep -q "<td rowspan=\"$rows\">tcp · 1 KiB · window1 · 1 client</td>" cal/calibration.html ||
    fail "calibration.html has no row of $rows metrics for the 1 KiB configuration"

# the page in Chromium
html_check "$T/cal.jsonl" "$T/cal/calibration.html" || true
assert_eq "$(page_field "$T/cal.jsonl" 0 '[this.errors.length, this.requests.length, this.scripts,
    this.charts, this.metrics.join(","), this.lang].join(" ")')" "0 0 0 1 detectable_pct en" \
    "calibration.html in Chromium ($(cat "$T/cal.jsonl"))"
if grep -E -q 'https?://|src=|<link|@import|url\(' cal/calibration.html; then
    fail "calibration.html refers outside the file"
fi
assert_eq "$(grep -o 'class="rl"' "$T/dom/calibration.html.dom" | wc -l | tr -d ' ')" 2 \
    "chart rows in the DOM"
assert_eq "$(grep -o 'class="gh">TCP echo · TCP · [0-9]* [KiB]*<' "$T/dom/calibration.html.dom" |
    wc -l | tr -d ' ')" 2 "one band per payload, each with its own axis"
chromium_run --screenshot="$T/cal.png" --window-size=1280,1200 "file://$T/cal/calibration.html" \
    > /dev/null || fail "chromium --screenshot failed: $(tail -n 3 "$T/chromium.err")"
assert_png "$T/cal.png"

# --lang zh: the same A/A run, both files in Chinese
sed 's/"runs": 3,/"runs": 2,/; s/, "instructions": {[^}]*}//' spec.json > spec-zh.json
"$COMPARE" calibrate --spec spec-zh.json --out calzh --lang zh > /dev/null 2> calzh.err ||
    { cat calzh.err >&2; fail "calibrate --lang zh exited $?"; }
for f in calibration.md calibration.html; do
    iconv -f UTF-8 -t UTF-8 "calzh/$f" > /dev/null || fail "calzh/$f is not valid UTF-8"
    if grep -q "false alarm\|Noise\|Detectable" "calzh/$f"; then fail "English left in calzh/$f"; fi
done
grep -q "^# 校准：ref 与自身对比$" calzh/calibration.md || fail "calibration.md (zh) title"
grep -q '<html lang="zh">' calzh/calibration.html || fail "calibration.html (zh) lang"
grep -q "<h2>噪声与下限</h2>" calzh/calibration.html || fail "calibration.html (zh) heading"
echo "ok: calibration.json/.md/.html agree on $n false alarm(s); the page is clean in Chromium"
