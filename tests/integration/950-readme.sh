#!/bin/sh
# pairbench-test: untimed
# Every command the README shows is exercised, so the README cannot drift from the tools:
# its code blocks and inline commands are extracted (continuations joined, comments cut) and
# each must match one of the cases below, which runs it — shortened where the real one takes
# minutes (fewer rounds, 0.1 s windows, a loopback port) — or checks it without side effects
# (`make -n`, install-deps --check). An unknown command fails the test: a new README command
# needs a case here. Every compare/driver flag in it is also checked against the binaries
# (tests/cmdlines.py). The long ones are covered whole elsewhere: make demo by test 560,
# make test by CI, install by test 900. Cost: about 20 s (4 real redis/valkey runs, an A/A
# calibration, four 1-row shards, a driver run).
. "$(dirname "$0")/../lib.sh"
need redis-server
need valkey-server
R=$TOP/README.md

python3 "$TOP/tests/cmdlines.py" "$COMPARE" "$DRIVER" "$R" > "$T/flags" 2>&1 ||
    { grep -v '^ok ' "$T/flags" >&2; fail "a README command line uses an unknown flag"; }

python3 - "$R" > "$T/cmds" <<'PY'
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
cmds = []
for block in re.findall(r'```(?:sh|console)?\n(.*?)```', text, re.S):
    cur = ''
    for line in block.splitlines():
        line = re.sub(r'\s+#.*$', '', line).strip()
        cur = (cur + ' ' + line).strip() if cur else line
        if cur.endswith('\\'):
            cur = cur[:-1].rstrip()
            continue
        if cur:
            cmds.append(cur)
        cur = ''
for span in re.findall(r'`([^`\n]+)`', re.sub(r'```.*?```', '', text, flags=re.S)):
    if re.match(r'(make|sh |bin/|compare |driver |man )', span) and ' ' in span.strip():
        cmds.append(span.strip())
for c in dict.fromkeys(cmds):
    print(re.sub(r'\s+', ' ', c))
PY
[ "$(wc -l < "$T/cmds")" -ge 14 ] || fail "found only $(wc -l < "$T/cmds") README commands: $(cat "$T/cmds")"

S=$TOP/ci/install-deps.sh
cd "$T"
cat > tcp-spec.json <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
              {"name": "b", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["$T/tcp-grid.json"], "runs": 1, "warmup": 0, "duration": 0.1}
JSON
echo '{"defaults": {"protocol": "tcp"}, "axes": {"payload": [64, 128, 256, 512]}}' > tcp-grid.json
echo '{"defaults": {"protocol": "tcp", "serve": true}}' > one-grid.json
python3 -c 'import json,sys; g=json.load(open(sys.argv[1])); g["axes"]={"payload": [1024]}
json.dump(g, open("redis-one.json", "w"))' "$TOP/grids/redis-mini.json" ||
    fail "grids/redis-mini.json does not parse"
short="--runs 1 --warmup 0 --duration 0.1"
n=0
while IFS= read -r cmd; do
    n=$((n + 1))
    case "$cmd" in
    "sh ci/install-deps.sh && make demo")
        sh "$S" --check 2> /dev/null || fail "$cmd: runtime packages missing"
        make -s -n -C "$TOP" demo > /dev/null || fail "$cmd: no demo target" ;;
    "sh ci/install-deps.sh --test && make test")
        sh "$S" --test --check 2> /dev/null || fail "$cmd: test packages missing"
        make -s -n -C "$TOP" test > /dev/null || fail "$cmd: no test target" ;;
    "sh ci/install-deps.sh --check")
        sh "$S" --check 2> /dev/null || fail "$cmd" ;;
    "make && bin/compare demo")
        make -s -q -C "$TOP" all || make -s -n -C "$TOP" all > /dev/null || fail "$cmd: make"
        "$COMPARE" demo --help > /dev/null || fail "$cmd: compare demo --help" ;;
    make | "make "*)
        # the targets and variables exist (a dry run); what they do is tested where they live
        make -s -n -C "$TOP" DESTDIR="$T/stage" ${cmd#make} > /dev/null 2> make.err ||
            fail "$cmd: make -n: $(tail -3 make.err)" ;;
    "compare --version")
        "$COMPARE" --version | grep -q "^pairbench $(cat "$TOP/VERSION") (" || fail "$cmd" ;;
    "bin/compare run --baseline 'redis-server --port {port} --save \"\"' --candidate 'valkey-server --port {port} --save \"\"' --redis SET,GET --pipeline 1,16")
        # the one-line form (test 563 covers it whole): two of its four rows measured
        "$COMPARE" run --baseline 'redis-server --port {port} --save ""' \
            --candidate 'valkey-server --port {port} --save ""' --redis SET,GET --pipeline 1 \
            --out "$T/oneline" $short > one.out 2> one.err || fail "$cmd: $(tail -3 one.err)"
        [ ! -e dump.rdb ] || fail "$cmd: the server wrote dump.rdb into the cwd" ;;
    "bin/compare run --spec specs/redis-vs-valkey.json --out reports/mine")
        # the spec and its grid are read and checked whole; one row of the grid is measured
        (cd "$TOP" && "$COMPARE" run --spec specs/redis-vs-valkey.json --out "$T/mine" $short \
            --grid "$T/redis-one.json") \
            > run.out 2> run.err || fail "$cmd: $(tail -3 run.err)"
        assert_eq "$(cat run.out)" "$T/mine" "$cmd: stdout" ;;
    "bin/compare report reports/mine --lang zh")
        "$COMPARE" report "$T/mine" --lang zh > /dev/null 2>&1 || fail "$cmd"
        grep -q '^## 摘要' "$T/mine/report.md" || fail "$cmd: not Chinese" ;;
    "bin/compare gate --spec specs/pr-gate.json --threshold throughput=5 --threshold p99_us=10")
        set +e
        # the spec and its thresholds as written, one row of its grid measured briefly (a run
        # directory of other versions is refused by --from since the versions must agree)
        (cd "$TOP" && "$COMPARE" gate --spec specs/pr-gate.json --grid "$T/one-grid.json" \
            --runs 2 --warmup 0 --duration 0.05 --budget 0 --no-instructions --out "$T/gate" \
            --threshold throughput=5 --threshold p99_us=10) > gate.out 2> gate.err
        rc=$?; set -e
        case $rc in 0 | 1 | 4) ;; *) fail "$cmd: exit $rc: $(tail -3 gate.err)" ;; esac ;;
    "bin/compare calibrate --spec specs/pr-gate.json")
        (cd "$TOP" && "$COMPARE" calibrate --spec specs/pr-gate.json --grid "$T/one-grid.json" \
            --out "$T/cal" --runs 2 --warmup 0 --duration 0.05) > cal.out 2> cal.err ||
            fail "$cmd: $(tail -3 cal.err)"
        [ -s "$T/cal/calibration.json" ] || fail "$cmd: no calibration.json" ;;
    "bin/compare commits --repo ~/src/server --baseline main --candidate WORKTREE --build 'make -j2' --spec spec.json")
        # the whole path (worktrees, builds, run) is test 710; here the command as written parses
        "$COMPARE" commits --help | grep -q -- '--candidate REF|WORKTREE' || fail "$cmd: usage" ;;
    "bin/compare drift --history /var/lib/pairbench --add reports/nightly")
        set +e
        "$COMPARE" drift --history "$T/hist" --add "$T/mine" > drift.out 2> drift.err
        rc=$?; set -e
        [ "$rc" -eq 0 ] || fail "$cmd: exit $rc: $(tail -3 drift.err)"
        [ -s "$T/hist/drift.md" ] || fail "$cmd: no drift.md" ;;
    "bin/compare run --spec spec.json --shard 2/4 --out shard2")
        for k in 1 2 3 4; do
            "$COMPARE" run --spec tcp-spec.json --shard "$k/4" --out "shard$k" > /dev/null 2> "shard$k.err" ||
                fail "$cmd (shard $k): $(tail -3 "shard$k.err")"
        done ;;
    "bin/compare merge --out merged shard1 shard2 shard3 shard4")
        "$COMPARE" merge --out merged shard1 shard2 shard3 shard4 > merge.out 2> merge.err ||
            fail "$cmd: $(tail -3 merge.err)"
        [ -s merged/report.md ] || fail "$cmd: no merged report" ;;
    "bin/driver redis --port 6379 --connections 4 --pipeline 16 --payload 1024 --duration 5")
        start_redis readme-redis
        "$DRIVER" redis --port "$REDIS_PORT" --connections 4 --pipeline 16 --payload 1024 --duration 0.2 \
            --warmup 0 > drv.json || fail "$cmd"
        assert_eq "$(json_get drv.json 'this.errors.verify + this.errors.io')" 0 "$cmd: errors" ;;
    "driver serve tcp|http|ws")
        for p in tcp http ws; do "$DRIVER" serve "$p" --help > /dev/null || fail "$cmd: $p"; done ;;
    "man compare" | "man driver" | "man -l man/compare.1" | "man -l man/driver.1")
        page=${cmd##* }; page=${page#man/}; page=${page%.1}
        MANWIDTH=80 man -l "$TOP/man/$page.1" 2> /dev/null | grep -q "^NAME" || fail "$cmd" ;;
    *) fail "README command not exercised by this test (add a case): $cmd" ;;
    esac
done < "$T/cmds"
echo "ok: $n README commands exercised"
