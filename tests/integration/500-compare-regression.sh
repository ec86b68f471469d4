#!/bin/sh
# pairbench-test: timed
# compare run end to end with a known regression: baseline = the reference TCP echo server,
# candidate = the same server waiting 1 ms before each reply (window 1, so every round trip
# pays it: a small fraction of the baseline's rate, clear even on a loaded machine). The
# throughput row must be `regressed` with disjoint ranges; runs.jsonl shows the alternating
# order (A B, B A, A B) and one fresh driver process per run; meta.json names the versions and
# the dataset hash; `compare report DIR` re-renders the same files. 5 runs a side: with 3 the
# row's family of timed metrics cannot stay within 0.05 (docs/statistics.md), so no timed
# verdict is given.
. "$(dirname "$0")/../lib.sh"
need node

cat > "$T/grid.json" <<JSON
{"name": "tcp-delay", "defaults": {"protocol": "tcp", "connections": 2, "payload": 64, "window": 1}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "baseline", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
   {"name": "candidate", "server": {"tcp": "$DRIVER serve tcp --port {port} --delay-us 1000"}}],
 "grids": ["$T/grid.json"], "runs": 5, "warmup": 0.2, "duration": 0.3}
JSON

rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/out" > "$T/stdout" 2> "$T/stderr" || rc=$?
[ $rc -eq 0 ] || { cat "$T/stderr" >&2; fail "compare run exited $rc"; }
assert_eq "$(cat "$T/stdout")" "$T/out" "stdout names the run directory"
for f in runs.jsonl meta.json summary.json report.md report.html; do
    [ -s "$T/out/$f" ] || fail "missing $f"
done

# the verdict: regressed, ranges disjoint, candidate well below baseline
assert_eq "$(json_get "$T/out/summary.json" 'const m=this.rows[0].metrics.throughput;
    [this.rows.length, this.rows[0].status, m.vs_baseline.candidate.verdict,
     m.vs_baseline.candidate.overlap, m.values.candidate.max < m.values.baseline.min,
     m.vs_baseline.candidate.change < -0.2, m.values.baseline.n, m.values.candidate.n].join(" ")')" \
    "1 ok regressed false true true 5 5" "throughput row"

# order and processes: rounds alternate, every run a fresh driver (and server)
assert_eq "$(node -e '
const lines=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
const order=lines.map(l=>l.round+":"+l.position+":"+l.version[0]).join(" ");
const pids=new Set(lines.map(l=>l.pid)), spids=new Set(lines.map(l=>l.server.pid));
const ok=lines.every(l=>l.status==="ok" && l.reason===null && l.result.schema==="pairbench.result/1"
    && l.client.cpu_s>0 && l.client.rss_peak_kib>0 && typeof l.server.cpu_s==="number"
    && /Z$/.test(l.started) && l.label==="tcp · 64 B · window1 · 2 clients");
console.log(order, pids.size, spids.size, ok);' "$T/out/runs.jsonl")" \
    "1:1:b 1:2:c 2:1:c 2:2:b 3:1:b 3:2:c 4:1:c 4:2:b 5:1:b 5:2:c 10 10 true" "run order, fresh processes"

# meta.json: versions, settings, the dataset hash matches
assert_eq "$(json_get "$T/out/meta.json" '[this.schema, this.versions.map(v=>v.name).join(","),
    this.settings.runs, this.settings.warmup, this.configs.length, this.dataset.file,
    this.ended !== null].join(" ")')" \
    "pairbench.meta/1 baseline,candidate 5 0.2 1 runs.jsonl true" "meta.json"
want=$(sha256sum "$T/out/runs.jsonl" | cut -d' ' -f1)
assert_eq "$(json_get "$T/out/meta.json" 'this.dataset.sha256')" "$want" "dataset hash"

# compare report re-renders the same files from the dataset alone
cp "$T/out/report.md" "$T/report.md.1"
cp "$T/out/summary.json" "$T/summary.json.1"
rm "$T/out/report.md" "$T/out/summary.json"
"$COMPARE" report "$T/out" > /dev/null || fail "compare report exited $?"
cmp "$T/report.md.1" "$T/out/report.md" || fail "report.md differs after compare report"
cmp "$T/summary.json.1" "$T/out/summary.json" || fail "summary.json differs after compare report"
grep -q "regressed" "$T/out/report.md" || fail "report.md does not say regressed"
