#!/bin/sh
# pairbench-test: untimed
# `--resume` continues only the measurement a run directory holds: a different duration,
# warm-up, run count, spec or grid is refused with exit 2 naming what differs, and meta.json
# and runs.jsonl are left as they were (no runs of two measurements in one dataset). The same
# spec and settings resume as before. `merge` uses the same comparison. Cost: about 2 s.
. "$(dirname "$0")/../lib.sh"
need sha256sum
cd "$T"
cat > grid.json <<'JSON'
{"name": "one", "defaults": {"protocol": "tcp", "connections": 1}}
JSON
cat > spec.json <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.2}
JSON
"$COMPARE" run --spec spec.json --out run > /dev/null 2> err0.txt || fail "first run: $(cat err0.txt)"
before=$(sha256sum run/meta.json run/runs.jsonl)
refused() { # expected-message-part args...
    want=$1; shift
    rc=0; "$COMPARE" run --out run --resume "$@" > /dev/null 2> err.txt || rc=$?
    assert_eq "$rc" 2 "exit code of --resume $* ($(cat err.txt))"
    grep -qF -- "$want" err.txt || fail "message of --resume $*: $(cat err.txt), expected: $want"
    assert_eq "$(sha256sum run/meta.json run/runs.jsonl)" "$before" "dataset after a refused --resume $*"
}
refused "--resume: 'run' holds runs of a different measurement: its settings (duration: 0.2 then 0.5)" \
    --spec spec.json --duration 0.5
refused "its settings (warmup: 0.1 then 0.3)" --spec spec.json --warmup 0.3
refused "its settings (runs: 1 then 3)" --spec spec.json --runs 3
sed 's/"duration": 0.2/"duration": 0.2, "grace": 9/' spec.json > spec2.json
refused "its spec (grace: (none) then 9)" --spec spec2.json
cp grid.json grid.orig
cat > grid.json <<'JSON'
{"name": "one", "defaults": {"protocol": "tcp", "connections": 2}}
JSON
refused "its grids ([0] sha256: " --spec spec.json
cp grid.orig grid.json
rc=0; "$COMPARE" run --spec spec.json --out run --resume > /dev/null 2> err.txt || rc=$?
assert_eq "$rc" 0 "resume of the same measurement ($(cat err.txt))"
exit 0
