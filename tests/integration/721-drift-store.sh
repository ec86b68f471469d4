#!/bin/sh
# pairbench-test: untimed
# The drift history is a store: concurrent `drift --add`s are serialized by a lock on the
# history, so six adds of one night at once add it once (the others say it is already there)
# and six adds of six nights at once leave six lines, and the drift.md written last counts
# six nights. A torn last line of index.jsonl is named in a warning and left out, and the next
# --add keeps it and starts a whole line after it; a night whose summary.json is corrupt is
# named and left out: the newest one makes drift exit 3 (not "All series (0)" and exit 0),
# an older one is counted out in drift.md. Cost: synthetic nights, about 3 s.
. "$(dirname "$0")/../lib.sh"
need node

# nights N: N synthetic run directories $T/n/1..N, one night each (flat throughput)
node - "$T/n" 8 <<'JS'
const fs = require("fs");
const [base, n] = process.argv.slice(2);
for (let day = 1; day <= Number(n); day++) {
  const dir = `${base}/${day}`, tput = 100000 + (day % 3) * 300;
  fs.mkdirSync(dir, {recursive: true});
  const started = `2026-10-${String(day).padStart(2, "0")}T02:00:00Z`;
  fs.writeFileSync(`${dir}/meta.json`, JSON.stringify({schema: "pairbench.meta/1", started,
    ended: started, versions: [{name: "main", commit: `c0mmit${day}`}],
    environment: {machine: "test box", cpu_model: "AMD EPYC", kernel: "6.1.0", compiler: "gcc 12"},
    configs: [{id: "a1b2c3d4", label: "tcp · 64 B · window1 · 1 clients", index: 0, params: {}}],
    dataset: {file: "runs.jsonl", sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}}));
  fs.writeFileSync(`${dir}/runs.jsonl`, "");
  const m = (x) => ({values: {main: {median: x, min: x * 0.99, max: x * 1.01, n: 5}}, vs_baseline: {}});
  fs.writeFileSync(`${dir}/summary.json`, JSON.stringify({schema: "pairbench.summary/1",
    baseline: "main", versions: ["main"], rows: [{config: "a1b2c3d4",
    label: "tcp · 64 B · window1 · 1 clients", params: {}, status: "ok",
    metrics: {throughput: m(tput), cpu_efficiency: m(tput * 1.5), p50_us: m(9), p99_us: m(15),
      rss_mib: m(3.0)}}]}));
}
JS
lines() { awk 'END { print NR }' "$1/index.jsonl"; } # a torn last line counts too

# 1. one night added six times at once: once
i=0; pids=""
while [ $i -lt 6 ]; do
    "$COMPARE" drift --history "$T/same" --add "$T/n/1" > "$T/same.$i.out" 2> "$T/same.$i.err" &
    pids="$pids $!"; i=$((i + 1))
done
for p in $pids; do wait "$p" || fail "a concurrent --add of one night failed: $(cat "$T"/same.*.err)"; done
assert_eq "$(lines "$T/same")" 1 "index lines after six concurrent adds of one night"
assert_eq "$(cat "$T"/same.*.err | grep -c "nothing added")" 5 "adds that said the night was there"

# 2. six nights added at once: six lines, and the last drift.md counts six
i=1; pids=""
while [ $i -le 6 ]; do
    "$COMPARE" drift --history "$T/many" --add "$T/n/$i" > "$T/many.$i.out" 2> "$T/many.$i.err" &
    pids="$pids $!"; i=$((i + 1))
done
for p in $pids; do wait "$p" || fail "a concurrent --add failed: $(cat "$T"/many.*.err)"; done
assert_eq "$(lines "$T/many")" 6 "index lines after six concurrent adds"
grep -q "6 nights, the newest" "$T/many/drift.md" || fail "drift.md does not count 6 nights: $(head -3 "$T/many/drift.md")"
assert_eq "$(cat "$T"/many.*.out | grep -c "drift: 6 nights")" 1 "runs that saw all six nights"

# 3. a torn last line: named, left out, kept; the next add starts a whole line after it
printf '{"id": "20261030T020000Z-torn", "di' >> "$T/many/index.jsonl"
rc=0; "$COMPARE" drift --history "$T/many" > "$T/torn.out" 2> "$T/torn.err" || rc=$?
assert_eq "$rc" 0 "drift over a torn index"
grep -q "index.jsonl:7': a torn last line" "$T/torn.err" || fail "the torn line is not named: $(cat "$T/torn.err")"
grep -q "The index holds 7 lines; left out, and kept as they are: index.jsonl:7 (a torn last line)" "$T/many/drift.md" ||
    fail "drift.md does not count what the index holds: $(head -3 "$T/many/drift.md")"
"$COMPARE" drift --history "$T/many" --add "$T/n/7" > /dev/null 2> "$T/add7.err" || fail "--add after a torn line: $(cat "$T/add7.err")"
grep -q '^{"id": "20261030T020000Z-torn", "di$' "$T/many/index.jsonl" || fail "the torn line was not kept as it was"
assert_eq "$(lines "$T/many")" 8 "index lines after the add that followed the torn line"
tail -n 1 "$T/many/index.jsonl" | grep -q '"id":"20261007T020000Z-e3b0c442"' || fail "the new line is not whole: $(tail -n 2 "$T/many/index.jsonl")"
grep -q "7 nights, the newest" "$T/many/drift.md" || fail "drift.md after the add: $(head -3 "$T/many/drift.md")"

# 4. a corrupt summary.json: an older night is left out and counted out; the newest exits 3
echo '[]' > "$T/many/runs/20261002T020000Z-e3b0c442/summary.json"
rc=0; "$COMPARE" drift --history "$T/many" > "$T/old.out" 2> "$T/old.err" || rc=$?
assert_eq "$rc" 0 "drift with an older night's summary corrupt"
grep -q "night '20261002T020000Z-e3b0c442' left out: .*not a pairbench summary" "$T/old.err" || fail "not named: $(cat "$T/old.err")"
grep -q "6 nights, the newest" "$T/many/drift.md" || fail "drift.md counts the corrupt night: $(head -3 "$T/many/drift.md")"
grep -q "left out.*night \`20261002T020000Z-e3b0c442\`" "$T/many/drift.md" || fail "drift.md does not say it left the night out"
printf '{"schema": "pairbench.summary/1", "rows": ' > "$T/many/runs/20261007T020000Z-e3b0c442/summary.json"
rc=0; "$COMPARE" drift --history "$T/many" > "$T/new.out" 2> "$T/new.err" || rc=$?
assert_eq "$rc" 3 "drift with the newest night's summary corrupt"
grep -q "night '20261007T020000Z-e3b0c442' left out" "$T/new.err" || fail "newest not named: $(cat "$T/new.err")"
grep -q "the newest night of the index was left out" "$T/new.err" || fail "exit 3 without its reason: $(cat "$T/new.err")"
grep -q "All series (0)" "$T/many/drift.md" && fail "drift.md has no series"
grep -q "Outcome:\*\* the newest night of the index was left out .*(exit 3)" "$T/many/drift.md" ||
    fail "drift.md's outcome: $(grep Outcome "$T/many/drift.md")"
echo "adds serialized, each night once; torn and corrupt entries named, kept, counted out"
