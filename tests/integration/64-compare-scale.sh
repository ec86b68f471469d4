#!/bin/sh
# Rendering a run directory stays near-linear in its configurations (summary, report.md and
# report.html index configurations by id and find table-wide facts once, instead of a search
# per configuration): the CPU time of `compare report` on 2,500 configurations is well under
# the quadratic 25x of its time on 500 (asserted < 10x; linear is 5x; measured 4.7x after,
# 15.3x before). CPU time (user + sys), not wall time, so a busy machine does not
# decide it. A grid past the stated cap of 100,000 configurations is refused at once with exit
# 2 naming its count and the cap. Cost: about 10 s (the two renders).
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
