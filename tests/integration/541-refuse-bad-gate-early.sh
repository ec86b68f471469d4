#!/bin/sh
# pairbench-test: untimed
# What `gate` would refuse in a spec's gate section (an unknown metric, a negative threshold,
# a budget of 0, a budget of "99999h", a noise limit of 0) is refused by `run` and `commits`
# before anything is measured or built: exit 2, the message names the spec, the JSON path and
# the bad value, and no run directory is written. Before, `run` measured for as long as the
# spec said and only `gate` refused it afterwards.
. "$(dirname "$0")/../lib.sh"

cat > "$T/grid.json" <<JSON
{"name": "g", "defaults": {"protocol": "tcp", "payload": 64, "connections": 1}}
JSON
git init -q "$T/repo" && (cd "$T/repo" && git commit -q --allow-empty -m one \
    && git commit -q --allow-empty -m two) || fail "git init"

check() { # gate-json expected-path expected-value
    cat > "$T/spec.json" <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
              {"name": "b", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 3, "warmup": 0.5, "duration": 5, "gate": $1}
JSON
    rm -rf "$T/out" "$T/cout"
    rc=0
    "$COMPARE" run --spec "$T/spec.json" --out "$T/out" > /dev/null 2> "$T/err" || rc=$?
    [ "$rc" -eq 2 ] || fail "run with gate $1 exited $rc (expected 2): $(cat "$T/err")"
    grep -q "spec.json: $2" "$T/err" || fail "run: message does not name $2: $(cat "$T/err")"
    grep -qF "$3" "$T/err" || fail "run: message does not quote the value $3: $(cat "$T/err")"
    [ ! -e "$T/out/runs.jsonl" ] || fail "run with gate $1 measured something"
    rc=0
    "$COMPARE" commits --repo "$T/repo" --baseline HEAD~1 --candidate HEAD --build 'sleep 30' \
        --spec "$T/spec.json" --out "$T/cout" > /dev/null 2> "$T/cerr" || rc=$?
    [ "$rc" -eq 2 ] || fail "commits with gate $1 exited $rc (expected 2): $(cat "$T/cerr")"
    grep -q "spec.json: $2" "$T/cerr" || fail "commits: message does not name $2: $(cat "$T/cerr")"
    [ ! -e "$T/cout" ] || fail "commits with gate $1 created its run directory"
    echo "refused: $(head -n 1 "$T/err")"
}

check '{"thresholds": {"latency": 5}}' '\$.gate.thresholds.latency' "unknown metric 'latency'"
check '{"thresholds": {"throughput": -3}}' '\$.gate.thresholds.throughput' "got -3"
check '{"budget": 0}' '\$.gate.budget' "got 0"
check '{"budget": "99999h"}' '\$.gate.budget' 'got "99999h"'
check '{"noise_limit": 0}' '\$.gate.noise_limit' "got 0"
