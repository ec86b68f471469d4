#!/bin/sh
# pairbench-test: untimed
# A secret never leaves: a version whose env holds DB_PASSWORD (meta.json writes it "***")
# and whose server prints its environment and fails to start, and a driver that prints its
# environment (with PAIRBENCH_REDIS_PASSWORD and an API_TOKEN) and fails: neither value is in
# runs.jsonl, summary.json, summary.csv, report.md, report.html, meta.json, nor in what
# compare run and compare report print, while the failures still show the variables' names
# with "***". Cost: 3 runs that fail at once, about 1 s.
. "$(dirname "$0")/../lib.sh"

cat > "$T/drv.sh" <<'SH'
#!/bin/sh
env >&2
echo "PAIRBENCH_REDIS_PASSWORD=$PAIRBENCH_REDIS_PASSWORD API_TOKEN=$API_TOKEN" >&2
exit 1
SH
write_grid "$T/grid.json" g '"protocol": "tcp", "payload": 64, "connections": 1'
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
  {"name": "b", "env": {"DB_PASSWORD": "s3cr3t-XYZ"},
   "server": {"tcp": "sh -c 'env; echo \"password is \$DB_PASSWORD\" >&2; exit 1' {port}"}},
  {"name": "c", "env": {"API_TOKEN": "tok-4242-abcd"}, "driver": "sh $T/drv.sh",
   "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3}
JSON

rc=0
PAIRBENCH_REDIS_PASSWORD=hunter-22-pw "$COMPARE" run --spec "$T/spec.json" --out "$T/out" \
    > "$T/stdout" 2> "$T/stderr" || rc=$?
[ "$rc" -eq 3 ] || fail "compare run exited $rc (expected 3, failed runs): $(tail -n 3 "$T/stderr")"
rc=0
PAIRBENCH_REDIS_PASSWORD=hunter-22-pw "$COMPARE" report "$T/out" > "$T/report.out" 2> "$T/report.err" || rc=$?

# the failures are there, named, with the values replaced
grep -q 'DB_PASSWORD=\*\*\*' "$T/out/runs.jsonl" || fail "runs.jsonl lacks the server's env line with ***: $(head -c 600 "$T/out/runs.jsonl")"
grep -q 'password is \*\*\*' "$T/stderr" || fail "the terminal lacks the server's stderr with ***"
grep -q 'PAIRBENCH_REDIS_PASSWORD=\*\*\*' "$T/out/runs.jsonl" || fail "runs.jsonl lacks the driver's env line with ***"
grep -q 'API_TOKEN=\*\*\*' "$T/stderr" || fail "the terminal lacks the driver's env line with ***"
[ "$(json_get "$T/out/meta.json" 'this.spec.versions[1].env.DB_PASSWORD')" = '***' ] ||
    fail "meta.json does not write DB_PASSWORD as ***"

for secret in s3cr3t-XYZ hunter-22-pw tok-4242-abcd; do
    for f in "$T"/out/* "$T/stdout" "$T/stderr" "$T/report.out" "$T/report.err"; do
        if grep -q -- "$secret" "$f"; then
            fail "$(basename "$f") holds the secret '$secret': $(grep -o -- ".\{0,40\}$secret" "$f" | head -n 1)"
        fi
    done
done
echo "no secret in $(ls "$T/out" | tr '\n' ' ')or the terminal"
