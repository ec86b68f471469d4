#!/bin/sh
# pairbench-test: untimed
# compare drift on histories of synthetic nights (run directories with hand-made meta.json and
# summary.json, values from a fixed-seed generator): a 12% throughput step held for 3 nights
# → exit 1 with the step at the right night; flat nights → exit 0; a single bad newest night
# (−15%, or −90%) decided against the nights before it → exit 1 on the night it happens, one
# whose own runs spread back to the old level → undecided, exit 0; a
# night from another kernel or another CPU of the same model name is marked and left out,
# one that recorded no CPU identity is not; re-adding a night is a no-op; --lang zh writes
# both reports in Chinese; nights that counted instructions/op get that series and its step;
# bad flags exit 2. Then one real night (a `compare run` of the reference TCP server) added to a
# history: its decay and longest reply gap are series of their own.
. "$(dirname "$0")/../lib.sh"
need node

# private copy: a rebuild of bin/ during the test cannot pull the binary away
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare
cp "$DRIVER" "$T/driver"; DRIVER=$T/driver # the real night runs it beside compare

# history NAME VALUES...: one run directory per night ("k:VALUE" = a night from another
# kernel, "c:VALUE" one from another CPU of the same model name, "n:VALUE" one that recorded
# no CPU identity, as runs before it was recorded, "h:VALUE" one whose commit holds markup and
# a '|'), all written by one node call, then added night by night with `compare drift --add`.
# With INSTR set (a list of instructions/op, one per night) the rows also carry the optional
# instructions metric, as a run with the counted channel on writes it.
history() {
    name=$1; h=$T/$1; shift
    INSTR=${INSTR:-} RATE=${RATE:-} SCPU=${SCPU:-} node - "$T/nights-$name" "$@" <<'JS'
const fs = require("fs");
const [base, ...vals] = process.argv.slice(2);
const instr = (process.env.INSTR || "").split(" ").filter(Boolean).map(Number);
const scpu = (process.env.SCPU || "").split(" ").filter(Boolean).map(Number);
const params = process.env.RATE ? {rate: Number(process.env.RATE)} : {};
vals.forEach((v, i) => {
  const day = i + 1, dir = `${base}/${day}`;
  const tag = /^[kcnhw]:/.test(v) ? v[0] : "", tput = Number(tag ? v.slice(2) : v) * 1000;
  fs.mkdirSync(dir, {recursive: true});
  const started = `2026-10-${String(day).padStart(2, "0")}T02:00:00Z`;
  const env = {machine: "test box", cpu_model: "AMD EPYC", kernel: tag === "k" ? "5.10.0" : "6.1.0",
    compiler: "gcc 12", cpu_id: `x86 family 25 model ${tag === "c" ? 1 : 17} stepping 1`};
  if (tag === "n") delete env.cpu_id;
  fs.writeFileSync(`${dir}/meta.json`, JSON.stringify({schema: "pairbench.meta/1", started,
    ended: started, versions: [{name: "main", commit: tag === "h" ? `<b>c${day}</b>|x` : `c0mmit${day}`}],
    environment: env,
    configs: [{id: "a1b2c3d4", label: "tcp · 64 B · window1 · 1 clients", index: 0, params: {}}],
    dataset: {file: "runs.jsonl", sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}}));
  fs.writeFileSync(`${dir}/runs.jsonl`, "");
  /* "w:VALUE": a noisy night, its own runs from 60% to 120% of its median */
  const [lo, hi] = tag === "w" ? [0.6, 1.2] : [0.99, 1.01];
  const m = (x) => ({values: {main: {median: x, min: x * lo, max: x * hi, n: 5}}, vs_baseline: {}});
  const lat = process.env.RATE ? 1e6 / 100000 : 1e6 / tput; /* at a fixed rate: flat */
  const metrics = {throughput: m(tput), cpu_efficiency: m(tput * 1.5), p50_us: m(lat * 0.9),
    p99_us: m(lat * 1.5), rss_mib: m(3.0)};
  if (instr.length) metrics.instructions = m(instr[i]);
  if (scpu.length) metrics.server_cpu_us = m(scpu[i]);
  fs.writeFileSync(`${dir}/summary.json`, JSON.stringify({schema: "pairbench.summary/1",
    baseline: "main", versions: ["main"], rows: [{config: "a1b2c3d4",
    label: "tcp · 64 B · window1 · 1 clients", params, status: "ok", metrics}]}));
});
JS
    day=1
    for v in "$@"; do
        set +e
        "$COMPARE" drift --history "$h" --add "$T/nights-$name/$day" > "$T/drift.out" 2> "$T/drift.err"
        rc=$?; set -e
        [ $rc -le 1 ] || fail "drift --add night $day: exit $rc: $(cat "$T/drift.err")"
        day=$((day + 1))
    done
}

noise="100.3 99.2 100.9 99.6 100.1 98.9 100.6 99.8 100.4 99.1"

# 1. a step: 10 nights at ~100k, 3 nights at ~88k -> exit 1, the step at night 11
history step $noise 88.1 87.6 88.4
assert_exit 1 "$COMPARE" drift --history "$T/step" > "$T/step.out" 2> "$T/step.err"
grep -q "regression on the newest night in 'tcp · 64 B · window1 · 1 clients' throughput" "$T/step.err" \
    || fail "no reason line: $(cat "$T/step.err")"
grep -q "night 11 (20261011T020000Z-e3b0c442): 99.95 k/s → 88.10 k/s (−11.86%, step" "$T/step/drift.md" \
    || { cat "$T/step/drift.md"; fail "step not reported at night 11"; }
grep -q "E-divisive means" "$T/step/drift.md" || fail "method not named in drift.md"
grep -q "<svg" "$T/step/drift.html" || fail "no trend chart in drift.html"
[ "$(wc -l < "$T/step/index.jsonl")" -eq 13 ] || fail "index should have 13 nights"
[ -f "$T/step/runs/20261013T020000Z-e3b0c442/summary.json" ] || fail "night not copied"

# re-adding the newest night changes nothing
assert_exit 1 "$COMPARE" drift --history "$T/step" --add "$T/nights-step/13" > /dev/null 2> "$T/re.err"
grep -q "already in the history" "$T/re.err" || fail "re-add not noticed"
[ "$(wc -l < "$T/step/index.jsonl")" -eq 13 ] || fail "re-add duplicated a night"

# 2. flat nights -> exit 0, nothing flagged
history flat $noise 100.2 99.7 100.5
assert_exit 0 "$COMPARE" drift --history "$T/flat" > "$T/flat.out"
grep -q "No series changed by its threshold" "$T/flat/drift.md" || fail "flat history flagged"

# 3. a single bad newest night, −15% against nights within 1%: decided on the night it
# happens (regressed, exit 1) though no step is seen yet; −90% likewise; the same −15% on a
# night whose own runs reach back to the old level stays undecided (exit 0)
history outlier $noise 100.2 99.7 85.0
assert_exit 1 "$COMPARE" drift --history "$T/outlier" > /dev/null 2> "$T/outlier.err"
grep -q "regression on the newest night in 'tcp · 64 B · window1 · 1 clients' throughput" \
    "$T/outlier.err" || fail "bad night not named: $(cat "$T/outlier.err")"
grep -q "−1[45]\.[0-9]*% regressed" "$T/outlier/drift.md" || { cat "$T/outlier/drift.md"; fail "bad night not shown"; }
history fell90 $noise 100.2 99.7 10.0
assert_exit 1 "$COMPARE" drift --history "$T/fell90" > /dev/null 2> "$T/fell90.err"
grep -Eq "−(89|90)\.[0-9]*% regressed" "$T/fell90/drift.md" || { cat "$T/fell90/drift.md"; fail "-90% night not flagged"; }
history noisy $noise 100.2 99.7 w:85.0
assert_exit 0 "$COMPARE" drift --history "$T/noisy" > /dev/null
grep -q "−1[45]\.[0-9]*% undecided" "$T/noisy/drift.md" || { cat "$T/noisy/drift.md"; fail "noisy night not undecided"; }

# 4. a night from another kernel (even a slow one) is marked and left out
history env $noise k:70.0 100.3 99.8
assert_exit 0 "$COMPARE" drift --history "$T/env" > "$T/env.out"
grep -q "1 night ran in another environment" "$T/env/drift.md" || fail "other environment not stated"
grep -q "| 11 | 20261011T020000Z-e3b0c442 | .* | no: other environment |" "$T/env/drift.md" \
    || fail "night 11 not marked"
grep -q "(1 in another environment, marked)" "$T/env.out" || fail "stdout line"

# 4b. the same CPU model name but another CPU (family/model/stepping): marked and left out
history cpu $noise c:70.0 100.3 99.8
assert_exit 0 "$COMPARE" drift --history "$T/cpu" > "$T/cpu.out"
grep -q "| 11 | 20261011T020000Z-e3b0c442 | .*model 1 stepping 1 | no: other environment |" \
    "$T/cpu/drift.md" || { cat "$T/cpu/drift.md"; fail "night 11 (other CPU) not marked"; }
grep -q "(1 in another environment, marked)" "$T/cpu.out" || fail "stdout line (cpu)"

# 4c. nights that recorded no CPU identity still count with those that did: the step after
# them is found
legacy=""
for v in $noise; do legacy="$legacy n:$v"; done
history legacy $legacy 88.1 87.6 88.4
assert_exit 1 "$COMPARE" drift --history "$T/legacy" > /dev/null 2> "$T/legacy.err"
grep -q "night 11 (20261011T020000Z-e3b0c442): 99.95 k/s → 88.10 k/s (−11.86%, step" \
    "$T/legacy/drift.md" || { cat "$T/legacy/drift.md"; fail "legacy nights left out"; }

# 4d. what a night's meta.json says is escaped in both reports
history markup $noise h:100.2
assert_exit 0 "$COMPARE" drift --history "$T/markup" > /dev/null
grep -qF '&lt;b&gt;c11&lt;/b&gt;|x' "$T/markup/drift.html" || fail "commit not escaped in drift.html"
if grep -qF "<b>c11" "$T/markup/drift.html"; then fail "markup from a commit in drift.html"; fi
grep -qF '| <b>c11</b>\|x |' "$T/markup/drift.md" || fail "'|' of a commit not escaped in drift.md"

# 4e. --lang zh: the same history in Chinese, in valid UTF-8, the figures unchanged; English
# words of the report are gone
assert_exit 1 "$COMPARE" drift --history "$T/step" --lang zh > /dev/null 2> /dev/null
for f in drift.md drift.html; do
    iconv -f UTF-8 -t UTF-8 "$T/step/$f" > /dev/null || fail "$f (zh) is not valid UTF-8"
done
grep -q "^# pairbench 漂移报告$" "$T/step/drift.md" || fail "drift.md (zh) has no Chinese title"
grep -q "第 11 晚（20261011T020000Z-e3b0c442）：99.95 k/s → 88.10 k/s（−11.86%，台阶" \
    "$T/step/drift.md" || { cat "$T/step/drift.md"; fail "step not reported in Chinese"; }
grep -q "变化点由 E-divisive 均值法" "$T/step/drift.md" || fail "method not in Chinese"
grep -q '<html lang="zh">' "$T/step/drift.html" || fail "drift.html (zh) lang"
grep -q "<h2>标记的序列</h2>" "$T/step/drift.html" || fail "drift.html (zh) headings"
if grep -E -q "Flagged series|Regression step|Outcome|slow drift|night 1<" "$T/step/drift.md" \
    "$T/step/drift.html"; then
    fail "English left in the Chinese drift report"
fi
assert_exit 2 "$COMPARE" drift --history "$T/step" --lang fr 2> "$T/e.err"
grep -q -- "compare drift: --lang: expected 'en' or 'zh', got 'fr'" "$T/e.err" ||
    fail "--lang message: $(cat "$T/e.err")"

# 4f. instructions/op, an optional metric, where the nights counted it: a series of its own,
# its 1% default threshold named, a 4% step held for 3 nights found and gated (exit 1)
INSTR="10000 10010 9995 10005 10000 9990 10010 10000 10005 9995 10400 10410 10395" \
    history instr $noise 100.2 99.7 100.5
assert_exit 1 "$COMPARE" drift --history "$T/instr" > /dev/null 2> "$T/instr.err"
grep -q "regression on the newest night in 'tcp · 64 B · window1 · 1 clients' instructions" \
    "$T/instr.err" || fail "instructions step not the reason: $(cat "$T/instr.err")"
grep -q "instructions/op 1% (gated)" "$T/instr/drift.md" || fail "instructions threshold not named"
grep -q "| tcp · 64 B · window1 · 1 clients | instructions/op | 10395 instructions/op | 10005 instructions/op |" \
    "$T/instr/drift.md" || { cat "$T/instr/drift.md"; fail "instructions series not shown"; }
grep -q "night 11 (20261011T020000Z-e3b0c442): 10000 instructions/op → 10400 instructions/op (+4.00%, step" \
    "$T/instr/drift.md" || fail "instructions step not at night 11"
assert_eq "$(grep -c "| instructions/op |" "$T/step/drift.md")" 0 \
    "instructions series in a history that never counted them"

# 4g. a fixed-rate row (params.rate) is judged by its own rules, as gate judges it: its
# throughput is a setting (a 12% lower achieved rate is shown, not gated), its server CPU per
# request is gated at 10% (a 12% step fails the night)
flat_cpu="20.1 19.9 20.2 20.0 19.8 20.1 20.0 19.9 20.2 20.0 20.1 19.9 20.0"
RATE=5000 SCPU="$flat_cpu" history rate_tput $noise 88.1 87.6 88.4
assert_exit 0 "$COMPARE" drift --history "$T/rate_tput" > /dev/null 2> "$T/rt.err"
grep -q "| tcp · 64 B · window1 · 1 clients | throughput | .* | yes (not gated) |" \
    "$T/rate_tput/drift.md" || { cat "$T/rate_tput/drift.md"; fail "fixed-rate throughput step gated"; }
grep -q "Rows at a fixed rate (open loop) are judged as the gate judges them" "$T/rate_tput/drift.md" ||
    fail "fixed-rate rules not stated"
if grep -q "Rows at a fixed rate" "$T/step/drift.md"; then fail "fixed-rate rules stated without such a row"; fi
RATE=5000 SCPU="20.1 19.9 20.2 20.0 19.8 20.1 20.0 19.9 20.2 20.0 22.5 22.4 22.6" \
    history rate_cpu $noise 100.2 99.7 100.5
assert_exit 1 "$COMPARE" drift --history "$T/rate_cpu" > /dev/null 2> "$T/rc.err"
grep -q "regression on the newest night in 'tcp · 64 B · window1 · 1 clients' server_cpu_us" \
    "$T/rc.err" || fail "fixed-rate server CPU step not the reason: $(cat "$T/rc.err")"

# 4h. a real night: a `compare run` of the reference TCP server (1 s windows, so each run has a
# series of ten intervals) added to a history; drift follows its over-time metrics night over
# night as it does the others: the decay and the longest reply gap are series of their own
write_grid "$T/real.grid.json" real '"protocol": "tcp", "connections": 1, "workers": 1'
write_spec "$T/real.spec.json" tcp "$T/real.grid.json" '"runs": 2, "warmup": 0.1, "duration": 1' \
    main "$DRIVER serve tcp --port {port}"
"$COMPARE" run --spec "$T/real.spec.json" --out "$T/realrun" > /dev/null 2> "$T/real.err" ||
    fail "the real night's run failed: $(tail -n 3 "$T/real.err")"
assert_exit 0 "$COMPARE" drift --history "$T/real" --add "$T/realrun" > /dev/null 2> "$T/real.err"
for m in "decay (last fifth against the first)" "longest reply gap" throughput; do
    grep -q "| tcp · 64 B · window1 · 1 client | $m | " "$T/real/drift.md" ||
        fail "the real night has no '$m' series: $(grep '^| tcp' "$T/real/drift.md")"
done

# 5. bad input
assert_exit 2 "$COMPARE" drift --history "$T/empty" 2> "$T/e.err"
grep -q "history '$T/empty' is empty" "$T/e.err" || fail "empty history message"
assert_exit 2 "$COMPARE" drift --history "$T/step" --window 0 2> "$T/e.err"
grep -q -- "compare drift: --window: expected a number of nights in \[1, 365\], got '0'" "$T/e.err" || fail "window message"
assert_exit 2 "$COMPARE" drift --history "$T/step" --threshold latency=5 2> "$T/e.err"
grep -q "unknown metric 'latency'" "$T/e.err" || fail "threshold message"
assert_exit 2 "$COMPARE" drift --history "$T/x" --add "$T/nowhere" 2> "$T/e.err"
grep -q "nowhere/meta.json" "$T/e.err" || fail "bad --add message: $(cat "$T/e.err")"
echo ok
