#!/bin/sh
# pairbench-test: untimed
# compare commits --instructions on a git repository made here, with real processes under real
# valgrind: each commit's build copies the project's own driver into the tree and writes a
# `server` script that runs `driver serve tcp` with the commit's --work (10 rounds, then 18: about
# 40 more instructions per request on ~650, +6%, where 3 counted runs repeat within 0.1%).
# The spec leaves the channel off; the flag turns it on. HEAD~1 -> HEAD is `regressed` on
# instructions (and --gate exits 1 on it alone, the timed rows having too few runs to decide);
# HEAD~1 against itself is `~`. Cost: about 60 s on 2 shared cores (12 counted runs of 1000
# requests).
. "$(dirname "$0")/../lib.sh"
need git
need valgrind
need node
cd "$T"
# private copies: a rebuild of bin/ during the test cannot pull the binaries away. valgrind
# cannot run an AddressSanitizer build: on the sanitized pass the plain build's driver (made
# by the first pass) is the server, and without one the test is skipped, saying so.
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare
cp "$DRIVER" "$T/driver" # the client, found next to compare
serve_driver=$DRIVER
case ${PAIRBENCH_BUILD:-build} in
*san*) serve_driver=$TOP/bin/driver
       [ -x "$serve_driver" ] || skip "no plain build of the driver for valgrind" ;;
esac
cp "$serve_driver" "$T/serve-driver"
mkdir repo && cd repo
git init -q . && git config user.email t@example.invalid && git config user.name test
cat > make-server.sh <<'SH'
# writes ./server: the reference TCP server with this commit's CPU work per request
work=10
printf '#!/bin/sh\nexec "$(dirname "$0")/driver" serve tcp --port "$1" --work %s\n' "$work" > server
chmod +x server
SH
git add make-server.sh && git commit -q -m "server: 10 rounds of work per request"
sed 's/^work=10$/work=18/' make-server.sh > m.tmp && mv m.tmp make-server.sh
grep -q '^work=18$' make-server.sh || fail "the candidate commit's edit did not apply"
git commit -q -am "server: 18 rounds of work per request"
cd "$T"
echo '{"name": "serve", "defaults": {"protocol": "tcp", "connections": 1, "payload": 64}}' > grid.json
cat > spec.json <<JSON
{"versions": [{"name": "baseline", "server": {"tcp": "{tree}/server {port}"}},
              {"name": "candidate", "server": {"tcp": "{tree}/server {port}"}}],
 "grids": ["grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.2, "grace": 10,
 "instructions": {"enabled": false, "runs": 3, "requests": 1000, "warmup_requests": 100,
                  "idle_s": 0.2}}
JSON
build="cp '$T/serve-driver' driver && sh make-server.sh && echo built"

# instructions verdict, change in %, counted runs a side, the top function's delta
verdict() { # run-dir
    json_get "$1/summary.json" '
const m = this.rows[0].metrics.instructions, v = m.vs_baseline.candidate;
[v.verdict, (v.change * 100).toFixed(1), m.values.baseline.n, m.values.candidate.n,
 v.functions.length ? Math.round(v.functions[0].delta) : "none"].join(" ")'
}

# 1. HEAD~1 -> HEAD: regressed on instructions; --gate exits 1 on that row alone
rc=0
"$COMPARE" commits --repo repo --baseline HEAD~1 --candidate HEAD --build "$build" --spec spec.json \
    --cache "$T/cache" --instructions --gate --out ab > ab.out 2> ab.err || rc=$?
[ $rc -eq 1 ] || { tail -20 ab.err >&2; fail "A/B: exit $rc, expected 1 (regressed)"; }
grep -q "built" ab/build-candidate.log || fail "candidate build log: $(cat ab/build-candidate.log)"
set -- $(verdict ab)
assert_eq "$1 $3 $4" "regressed 3 3" "A/B instructions verdict and counted runs"
# 8 more rounds of about 5 instructions each: +4% to +9% of a request, and the function
# holding the loop moved by 30 to 60 instructions/op
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }
within "$2" 4 9 ||
    fail "A/B change $2%, expected +4..+9%"
within "$5" 30 60 ||
    fail "A/B top function delta $5 instructions/op, expected 30..60"
grep -q "compare: commits: regression in 'tcp .*' instructions/op +" ab.err ||
    fail "no regression line naming instructions/op: $(grep commits: ab.err)"
grep -q -- "--instructions" ab/report.md || fail "reproduce line lacks --instructions"
assert_eq "$(json_get ab/meta.json 'this.commits.trees.map(t => t.reused).join(" ")')" "false false"

# 2. HEAD~1 against itself: ~ on instructions, the tree reused from the cache
rc=0
"$COMPARE" commits --repo repo --baseline HEAD~1 --candidate HEAD~1 --build "$build" --spec spec.json \
    --cache "$T/cache" --instructions --out aa > /dev/null 2> aa.err || rc=$?
[ $rc -eq 0 ] || { tail -20 aa.err >&2; fail "A/A: exit $rc"; }
grep -q "reusing the tree built" aa.err || fail "A/A did not reuse the built tree: $(cat aa.err)"
set -- $(verdict aa)
assert_eq "$1 $3 $4" "~ 3 3" "A/A instructions verdict and counted runs"
within "$2" -0.5 0.5 ||
    fail "A/A change $2%, expected within 0.5%"

# 3. without the flag the spec's "enabled": false holds: no counted runs
"$COMPARE" commits --repo repo --baseline HEAD~1 --candidate HEAD --build "$build" --spec spec.json \
    --cache "$T/cache" --out off > /dev/null 2> off.err || fail "no flag: $(tail -5 off.err)"
assert_eq "$(grep -c '"kind": *"instructions"' off/runs.jsonl || true)" 0 "counted runs without --instructions"
echo ok
