#!/bin/sh
# pairbench-test: timed
# compare demo end to end with the real redis-server (7.0) and valkey-server (8.0): six
# configurations (ECHO/SET/GET x pipeline 1/16), both servers fresh per run; every run ok,
# the servers' versions in meta.json; on stdout the answer first (a table within 100 terminal
# cells: one line per row naming its command, the change per gated metric, the verdict, then
# the outcome, the values every row shares once above it, each row named by what varies,
# uncut), then the report path. Shortened windows (the default demo is 3 rounds of
# 0.5 + 1.5 s).
. "$(dirname "$0")/../lib.sh"
need redis-server
need valkey-server
need node

rc=0
# the counted rounds are tested in 58 (they would add about a minute here)
"$COMPARE" demo --out "$T/demo" --runs 2 --warmup 0.1 --duration 0.3 --no-instructions \
    > "$T/stdout" 2> "$T/stderr" ||
    rc=$?
[ $rc -eq 0 ] || { cat "$T/stderr" >&2; fail "compare demo exited $rc"; }
tail -n 1 "$T/stdout" | grep -q "^report: $T/demo/report.md" || fail "no report path last on stdout"
head -n 1 "$T/stdout" | grep -q '^all rows: redis · 64 B · window1 · 4 clients$' ||
    fail "not the values every row shares first on stdout: $(head -n 1 "$T/stdout")"
sed -n 2p "$T/stdout" | grep -Eq '^row +throughput +cpu_efficiency +p99_us +verdict$' ||
    fail "no table header second on stdout: $(sed -n 2p "$T/stdout")"
# six distinct, uncut labels: what varies (command, pipeline), whole
assert_eq "$(grep -Eo '^(ECHO|SET|GET) · pipeline(1|16) ' "$T/stdout" | sort -u | wc -l)" 6 \
    "distinct table rows on stdout"
! grep -q '…' "$T/stdout" || fail "a label was cut: $(grep '…' "$T/stdout")"
grep -Eq '^(regressed|improved|~|undecided|failed): [0-9]+ regressed' "$T/stdout" ||
    fail "no outcome line"
python3 -c '
import sys, unicodedata
for l in open(sys.argv[1], encoding="utf-8"):
    w = sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1
            for c in l.rstrip("\n"))
    assert w <= 100, (w, l)' "$T/stdout" || fail "a line of the table is wider than 100 cells"
assert_eq "$(json_get "$T/demo/summary.json" 'typeof this.outcome.overall')" string "summary.json outcome"
assert_eq "$(node -e '
const l=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
console.log(l.length, l.filter(x=>x.status==="ok" && x.result.errors.verify===0).length,
  [...new Set(l.map(x=>x.version))].join(","));' "$T/demo/runs.jsonl")" \
    "24 24 redis-7.0,valkey-8.0" "demo runs"
assert_eq "$(json_get "$T/demo/meta.json" 'this.versions.map(v=>v.server_version.split(" ")[0]).join(",")')" \
    "redis,valkey" "server versions"
[ -s "$T/demo/report.html" ] || fail "no report.html"
[ -s "$T/demo/input/demo-spec.json" ] || fail "the demo's spec is not kept for reproduction"
if pgrep -f "port [0-9]* --bind 127.0.0.1 --save  --appendonly no --dir $T" > /dev/null; then
    fail "a server outlived the demo"
fi
