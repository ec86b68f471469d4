#!/bin/sh
# compare demo end to end with the real redis-server (7.0) and valkey-server (8.0): six
# configurations (ECHO/SET/GET x pipeline 1/16), both servers fresh per run; every run ok,
# the servers' versions in meta.json, the report path and the "Throughput and CPU" table on
# stdout. Shortened windows (the default demo is 3 rounds of 0.5 + 1.5 s).
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
grep -q "^report: $T/demo/report.md" "$T/stdout" || fail "no report path on stdout"
grep -q "Throughput and CPU" "$T/stdout" || fail "no throughput table on stdout"
assert_eq "$(grep -c '^| redis' "$T/stdout")" 6 "table rows on stdout"
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
