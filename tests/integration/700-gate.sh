#!/bin/sh
# pairbench-test: timed
# compare gate end to end with the reference TCP echo server: a candidate that waits 300 µs
# per reply regresses (exit 1, reason naming the row, gate.md); the baseline against itself
# never regresses (0, or 4 when the loaded machine made a row unstable); a server that cannot
# start is a harness failure (3); bad thresholds and a
# missing token exit 2; the spec's per-row rules apply; --post creates the PR comment on a
# local receiver, then updates it in place, with the bearer token only in the header; an
# unreachable URL leaves the exit code unchanged.
. "$(dirname "$0")/../lib.sh"
need node
cd "$T"
# private copies: a rebuild of bin/ during the test cannot pull the binaries away
cp "$DRIVER" "$T/driver"; DRV=$T/driver
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare
cat > grid.json <<'JSON'
{"name": "gate-small", "defaults": {"protocol": "tcp", "connections": 1, "workers": 1, "payload": 64}}
JSON
cat > slow.json <<JSON
{"versions": [
  {"name": "baseline", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}},
  {"name": "candidate", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port} --delay-us 300"}}],
 "grids": ["grid.json"], "runs": 4, "warmup": 0.1, "duration": 0.3, "grace": 10, "probe_timeout": 20}
JSON
cat > same.json <<JSON
{"versions": [
  {"name": "baseline", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}},
  {"name": "candidate", "driver": "$DRV", "server": {"tcp": "$DRV serve tcp --port {port}"}}],
 "grids": ["grid.json"], "runs": 4, "warmup": 0.1, "duration": 0.3, "grace": 10, "probe_timeout": 20,
 "gate": {"thresholds": {"throughput": 5, "p99": 10}}}
JSON

# 1. a clear regression
assert_exit 1 "$COMPARE" gate --spec slow.json --no-instructions --out slow > slow.out 2> slow.err
grep -q "compare: gate: exit 1: regression in 'tcp · 64 B · window1 · 1 client' throughput −" slow.err \
    || fail "reason line: $(tail -3 slow.err)"
head -1 slow.out | grep -q '^<!-- pairbench-gate -->$' || fail "stdout is not the gate Markdown"
# the default placement: driver and server on disjoint halves of the CPUs (2 or more)
if [ "$(nproc)" -ge 2 ]; then
    assert_eq "$(json_get slow/meta.json '[this.settings.pin_driver !== null, this.settings.pin_server !== null, this.settings.pin_driver !== this.settings.pin_server].join(" ")')" \
        "true true true" "the gate's default placement in meta.json"
    grep -q "compare: gate: the driver runs on CPUs .*, the server on CPUs " slow.err || fail "placement not said"
fi
grep -q "^## pairbench gate: regression" slow/gate.md || fail "gate.md"
grep -q "| tcp · 64 B · window1 · 1 client | candidate | throughput −[0-9.]*% regressed (5%)" slow/gate.md \
    || fail "gate.md row: $(cat slow/gate.md)"
# the report was rendered with the gate's rules: same verdict as the exit code
assert_eq "$(json_get slow/summary.json 'this.rows[0].metrics.throughput.vs_baseline.candidate.verdict')" regressed

# 2. the baseline against itself: no regression. Same server on both sides, so a regressed
# row can only be noise from a loaded machine (4 runs a side: disjoint ranges by chance
# 2/70 when runs are exchangeable, more when the load shifts): two retries are allowed.
self_ok=0
for attempt in 1 2 3; do
    rm -rf same
    set +e; "$COMPARE" gate --spec same.json --budget 0 --no-instructions --out same > same.out 2> same.err; rc=$?; set -e
    case $rc in
    0) grep -q "compare: gate: pass" same.err || fail "pass line"; self_ok=1; break ;;
    4) grep -q "compare: gate: exit 4: undecided: 'tcp · 64 B · window1 · 1 client'" same.err || fail "exit 4 reason: $(cat same.err)"; self_ok=1; break ;;
    1) echo "attempt $attempt: noise flagged a row on a loaded machine: $(grep 'exit 1' same.err)" ;;
    *) fail "baseline vs itself: exit $rc: $(tail -3 same.err)" ;;
    esac
done
[ $self_ok -eq 1 ] || fail "the baseline regressed against itself three times"
grep -q "Gated metrics and thresholds: throughput 5%, P99 10%" same/gate.md || fail "spec thresholds not used"

# a candidate whose server cannot start: runs failed, harness failure (3) with the row named
sed "s|\"$DRV serve tcp --port {port} --delay-us 300\"|\"/bin/false --port {port}\"|; s|\"runs\": 4|\"runs\": 1|" slow.json > broken.json
grep -q /bin/false broken.json || fail "broken.json"
assert_exit 3 "$COMPARE" gate --spec broken.json --out broken > /dev/null 2> broken.err
grep -q "compare: gate: exit 3: rows with failed runs: 'tcp · 64 B · window1 · 1 client'" broken.err \
    || fail "harness failure reason: $(tail -3 broken.err)"

# 3. bad input
assert_exit 2 "$COMPARE" gate --spec slow.json --threshold latency=5 2> e.txt
assert_eq "$(cat e.txt)" "compare: --threshold 'latency=5': unknown metric 'latency' (expected throughput, cpu_efficiency, p50_us, p99_us, rss_mib, server_cpu_us, instructions, context_switches, page_faults, cpu_migrations, syscalls, allocations, estimated_cycles, reopened_per_1k, stall, decay)"
assert_exit 2 "$COMPARE" gate --spec slow.json --post http://127.0.0.1:9/x 2> e.txt
grep -q -- "--post needs --post-token-env VAR" e.txt || fail "missing --post-token-env"
assert_exit 2 env -u NO_SUCH_TOKEN "$COMPARE" gate --spec slow.json --post http://127.0.0.1:9/x --post-token-env NO_SUCH_TOKEN 2> e.txt
grep -q -- "--post-token-env 'NO_SUCH_TOKEN': the environment variable is not set or empty" e.txt || fail "unset token"
[ ! -e reports ] || fail "bad input must not run anything"

# 4. per-row rules from a spec: this row only gated on RSS at 1000% -> the slow run passes
sed 's/"runs": 4/"gate": {"rows": [{"match": {"protocol": "tcp"}, "thresholds": {"throughput": 0, "cpu_efficiency": 0, "p99": 0, "rss": 1000}}]}, "runs": 4/' slow.json > rows.json
set +e; "$COMPARE" gate --from slow --spec rows.json > rows.out 2> rows.err; rc=$?; set -e
[ $rc -eq 0 ] || [ $rc -eq 4 ] || fail "per-row rule: exit $rc: $(cat rows.err)"
grep -q "| tcp · 64 B · window1 · 1 client | candidate | RSS .* (1000%) |" rows.out || fail "row rule not applied: $(cat rows.out)"

# 5. --post: create, then update in place; the token travels only in the header
port=$(free_port)
token="tok-$(date +%s)-secret"
RECEIVER_TOKEN=$token RECEIVER_SEED=150 start_bg receiver node "$TOP/tests/receiver.js" "$port" "$T/requests.jsonl"
wait_port "$port"
url="http://127.0.0.1:$port/repos/o/r/issues/1/comments"
GATE_TOKEN=$token assert_exit 1 "$COMPARE" gate --from slow --post "$url" --post-token-env GATE_TOKEN > p1.out 2> p1.err
grep -q "compare: gate: comment created" p1.err || fail "first post: $(cat p1.err)"
GATE_TOKEN=$token assert_exit 1 "$COMPARE" gate --from slow --post "$url" --post-token-env GATE_TOKEN > p2.out 2> p2.err
grep -q "compare: gate: comment updated" p2.err || fail "second post: $(cat p2.err)"
methods=$(node -e 'const fs=require("fs");console.log(fs.readFileSync(process.argv[1],"utf8").trim().split("\n").map(l=>{const r=JSON.parse(l);return r.method+" "+r.url.split("?")[0]}).join(","))' requests.jsonl)
pages=$(node -e 'const fs=require("fs");console.log(fs.readFileSync(process.argv[1],"utf8").trim().split("\n").map(l=>JSON.parse(l)).filter(r=>r.method==="GET").map(r=>r.url.split("?")[1]).join(","))' requests.jsonl)
assert_eq "$pages" "per_page=100&page=1,per_page=100&page=2,per_page=100&page=1,per_page=100&page=2" "pages listed"
# 150 comments by others were there: two pages looked through, ours created, then found on
# page 2 and updated
assert_eq "$methods" "GET /repos/o/r/issues/1/comments,GET /repos/o/r/issues/1/comments,POST /repos/o/r/issues/1/comments,GET /repos/o/r/issues/1/comments,GET /repos/o/r/issues/1/comments,PATCH /repos/o/r/issues/comments/1150" "requests"
node -e 'const fs=require("fs");for(const l of fs.readFileSync(process.argv[1],"utf8").trim().split("\n")){if(JSON.parse(l).authorization!=="Bearer "+process.argv[2])process.exit(1)}' requests.jsonl "$token" \
    || fail "a request without the bearer token"
# one comment, carrying the marker, the gate outcome and the full report
body=$(node -e 'const fs=require("fs");const l=fs.readFileSync(process.argv[1],"utf8").trim().split("\n");console.log(JSON.parse(JSON.parse(l[l.length-1]).body).body)' requests.jsonl)
case $body in "<!-- pairbench-gate -->"*"pairbench gate: regression"*"<details><summary>Full report</summary>"*) ;; *) fail "comment body: $body" ;; esac
# the token is in no output file and in no argv
if grep -r -- "$token" slow same ./*.out ./*.err 2>/dev/null; then fail "token leaked into an output file"; fi
for p in /proc/[0-9]*; do
    if { tr '\0' ' ' < "$p/cmdline"; } 2>/dev/null | grep -q -- "$token"; then fail "token in argv of $p"; fi
done

# 6. unreachable endpoint: a warning, the same exit code
dead=$(free_port)
GATE_TOKEN=$token assert_exit 1 "$COMPARE" gate --from slow --post "http://127.0.0.1:$dead/repos/o/r/issues/1/comments" --post-token-env GATE_TOKEN > /dev/null 2> p3.err
grep -q "compare: gate: warning: comment not posted (the verdict stands): post: GET 'http://127.0.0.1:$dead/" p3.err \
    || fail "unreachable: $(cat p3.err)"
echo ok
