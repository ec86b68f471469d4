#!/bin/sh
# pairbench-test: untimed
# Rendering a run directory stays near-linear in its configurations (summary, report.md and
# report.html index configurations by id and find table-wide facts once, instead of a search
# per configuration): the CPU time of `compare report` on 2,500 configurations is well under
# the quadratic 25x of its time on 500 (asserted < 10x; linear is 5x; measured 4.7x after,
# 15.3x before). CPU time (user + sys), not wall time, so a busy machine does not
# decide it. Planning is near-linear too: `compare run` on a grid of 3,000 and of 15,000
# configurations, whose driver stops compare (SIGTERM) as the first run starts, so what is
# timed is loading, de-duplicating, labelling, scheduling, writing meta.json and rendering the
# interrupted run's reports (asserted < 8x for 5x; linear is 5x). A grid past the stated cap
# of 100,000 configurations is refused at once with exit 2 naming its count and the cap.
# Cost: about 15 s (two renders, two plans).
. "$(dirname "$0")/../lib.sh"
need node
cd "$T"
need bash
cpu_of() { # dir: user+sys seconds of `compare report dir` (bash's time keyword)
    bash -c 'TIMEFORMAT="%U %S"; time "$0" report "$1" > /dev/null 2> "$1.err"' \
        "$COMPARE" "$1" 2> "$1.time" || fail "compare report $1: $(cat "$1.err")"
    awk '{print $1 + $2}' "$1.time"
}
node "$TOP/tests/peers/big_run_dir.js" small 500
node "$TOP/tests/peers/big_run_dir.js" large 2500
t1=$(cpu_of small)
t2=$(cpu_of large)
echo "compare report CPU: 500 configurations ${t1} s, 2500 configurations ${t2} s"
assert_eq "$(json_get large/summary.json 'this.rows.length')" 2500 "rows rendered"
awk -v a="$t1" -v b="$t2" 'BEGIN { r = b / (a > 0.01 ? a : 0.01); printf "ratio %.1f\n", r; exit !(r < 10) }' ||
    fail "rendering 5x the configurations cost more than 10x the CPU ($t1 s -> $t2 s): superlinear"

# planning: the first run starts only after every configuration was planned and meta.json
# written; its driver stops compare there (exit 3, the interrupted run's reports rendered)
cat > stop-driver <<'SH'
#!/bin/sh
kill -TERM "$PPID"
sleep 5
SH
chmod +x stop-driver
plan_cpu() { # N: user+sys seconds of `compare run` on an N-configuration grid (N/100 x 100)
    node -e 'const a=n=>[...Array(n).keys()].map(i=>i+1);
console.log(JSON.stringify({name:"plan", defaults:{protocol:"tcp", port:9},
  axes:{payload:a(100), window:a(Number(process.argv[1]) / 100)}}))' "$1" > "plan$1.json"
    cat > "plan$1.spec.json" <<JSON
{"versions": [{"name": "a", "driver": "$T/stop-driver"}], "grids": ["plan$1.json"],
 "runs": 1, "warmup": 0, "duration": 0.1}
JSON
    bash -c 'TIMEFORMAT="%U %S"; time { "$0" run --spec "$1" --out "$2" > /dev/null 2> "$2.err";
        echo $? > "$2.rc"; }' "$COMPARE" "plan$1.spec.json" "plan$1" 2> "plan$1.time"
    assert_eq "$(cat "plan$1.rc")" 3 "plan $1: exit code of the stopped run"
    grep -q "report: plan$1/report.md" "plan$1.err" || fail "plan $1: $(tail -n 3 "plan$1.err")"
    assert_eq "$(json_get "plan$1/meta.json" 'this.configs.length')" "$1" "planned configurations"
    awk '{print $1 + $2}' "plan$1.time"
}
p1=$(plan_cpu 3000)
p2=$(plan_cpu 15000)
echo "compare run CPU up to the first run: 3000 configurations ${p1} s, 15000 configurations ${p2} s"
awk -v a="$p1" -v b="$p2" 'BEGIN { r = b / (a > 0.01 ? a : 0.01); printf "ratio %.1f\n", r; exit !(r < 8) }' ||
    fail "planning 5x the configurations cost more than 8x the CPU ($p1 s -> $p2 s): superlinear"

# the cap, stated and refused up front
node -e 'const a=n=>[...Array(n).keys()].map(i=>i+1);
console.log(JSON.stringify({name:"huge", defaults:{protocol:"tcp", port:9},
  axes:{payload:a(317), window:a(316)}}))' > huge.json
cat > spec.json <<JSON
{"versions": [{"name": "a"}], "grids": ["huge.json"]}
JSON
rc=0; "$COMPARE" run --spec spec.json --out never > /dev/null 2> err.txt || rc=$?
assert_eq "$rc" 2 "exit code for 100,172 configurations"
grep -qF "huge.json: \$.axes: the product has 100172 configurations, more than the 100000 a run can plan" err.txt ||
    fail "cap message: $(cat err.txt)"
[ ! -e never ] || fail "a refused run wrote its directory"
exit 0
