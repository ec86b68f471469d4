#!/bin/sh
# pairbench-test: untimed
# compare gate --inconclusive exit|pass|fail: what an inconclusive gate exits with (4 by
# default, 0 or 1 when a CI job chooses), gate.md still saying inconclusive; a bad value exits
# 2 naming the flag; --budget 0 is the planned rounds only. The A/A gate at one run a side is
# always inconclusive (too few runs for any verdict). Cost: about 5 s.
. "$(dirname "$0")/../lib.sh"
need node
cd "$T"
cat > spec.json <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
              {"name": "b", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0, "duration": 0.1}
JSON
echo '{"defaults": {"protocol": "tcp"}}' > grid.json
assert_exit 4 "$COMPARE" gate --spec spec.json --budget 0 --no-instructions --out r > g.out 2> g.err
grep -q 'too few runs' r/gate.md || fail "not inconclusive for too few runs: $(cat r/gate.md)"
assert_exit 4 "$COMPARE" gate --from r --inconclusive exit > /dev/null 2>&1
assert_exit 0 "$COMPARE" gate --from r --inconclusive pass > p.out 2> p.err
grep -q 'undecided, taken as a pass (--inconclusive pass)' p.err || fail "no note: $(cat p.err)"
grep -q 'Undecided' r/gate.md || fail "gate.md no longer says undecided"
assert_exit 1 "$COMPARE" gate --from r --inconclusive fail > /dev/null 2> f.err
grep -q 'taken as a failure' f.err || fail "no note: $(cat f.err)"
assert_exit 2 "$COMPARE" gate --from r --inconclusive maybe 2> e.err
grep -q -- "--inconclusive" e.err || fail "bad value not named: $(cat e.err)"
echo ok
