#!/bin/sh
# pairbench-test: untimed
# Redis templates, key patterns, mixes and setup, checked command by command by a real RESP
# server of our own (tests/peers/resp_fixture.py logs every command it receives): a template
# sends exactly its arguments; sequential keys walk the keyspace in order; a mix interleaves
# its commands in the weights' proportions with keys in range, and the result counts each; a setup generator arrives
# complete, in order, on one connection and before any connection's first workload command,
# and the result records its command count, SHA-256 and the key count after it; an error
# reply to a setup command fails the run naming the command and the reply. Bad templates are
# refused by the driver and by compare's grid validation (exit 2, the key and value named).
. "$(dirname "$0")/../lib.sh"
need python3

FP=$(free_port)
start_bg fixture python3 "$TOP/tests/peers/resp_fixture.py" "$FP" "$T/log.jsonl"
wait_port "$FP"

# check NAME PYTHON: runs PYTHON with L (the log's commands since the last check, each
# [seq, conn, args...]) and R (the driver's result); an assertion failure fails the test.
check() {
    python3 - "$T/log.jsonl" "$T/out.json" "$(cat "$T/mark" 2>/dev/null || echo 0)" <<PY ||
import json, sys
L = [json.loads(x) for x in open(sys.argv[1])]
L = [c for c in L if c[0] > int(sys.argv[3])]
R = json.load(open(sys.argv[2])) if open(sys.argv[2]).read().strip() else {}
$2
PY
        fail "$1"
    python3 -c 'import json,sys; L=[json.loads(x) for x in open(sys.argv[1])]; print(L[-1][0] if L else 0)' \
        "$T/log.jsonl" > "$T/mark"
}

# 1. a template and a setup generator
"$DRIVER" redis --port "$FP" --command 'HDEL h f157 f3 "f 9"' --connections 3 --requests 300 \
    --warmup 0 --setup '[{"command": "HSET h f__i__ v__i__", "count": 200}, "SET s __data__"]' \
    --payload 5 > "$T/out.json" 2> "$T/err.txt" || { cat "$T/err.txt"; fail "HDEL run"; }
check "template and setup" '
setup = [c for c in L if c[2] in ("HSET", "SET", "DBSIZE")]
work = [c for c in L if c[2] == "HDEL"]
assert len(L) == len(setup) + len(work), L[:3]
assert [c[2:] for c in setup] == [["HSET", "h", "f%d" % i, "v%d" % i] for i in range(200)] + \
    [["SET", "s", "abcde"], ["DBSIZE"]], "setup differs"
assert len({c[1] for c in setup}) == 1, "setup on several connections"
assert max(c[0] for c in setup) < min(c[0] for c in work), "a workload command before setup ended"
assert len(work) == 300 and all(c[2:] == ["HDEL", "h", "f157", "f3", "f 9"] for c in work)
s = R["setup"]
assert s["commands"] == 201 and s["keys"] == 2 and len(s["sha256"]) == 64, s
assert R["status"] == "ok" and R["ops"] == 300 and R["config"]["command"] == "HDEL h f157 f3 \"f 9\""
'
sha1=$(json_get "$T/out.json" 'this.setup.sha256')

# the same setup from a file of inline commands gives the same SHA-256
python3 -c '
for i in range(200): print("HSET h f%d v%d" % (i, i))
print("# a comment"); print("SET s abcde")' > "$T/setup.txt"
"$DRIVER" redis --port "$FP" --command PING --requests 10 --warmup 0 --setup "$T/setup.txt" \
    --payload 5 > "$T/out.json" 2> "$T/err.txt" || { cat "$T/err.txt"; fail "setup file run"; }
assert_eq "$(json_get "$T/out.json" 'this.setup.sha256')" "$sha1" "SHA-256 of the same setup"
check "setup file" 'assert [c[2] for c in L].count("PING") == 10'

# 2. sequential keys walk the keyspace in order (one connection), as JSON arguments
printf '{"protocol": "redis", "port": %s, "command": ["GET", "__key__"], "key_pattern": "sequential", "keyspace": 50, "requests": 120, "warmup": 0}\n' \
    "$FP" > "$T/seq.json"
"$DRIVER" --config "$T/seq.json" > "$T/out.json" 2> "$T/err.txt" || { cat "$T/err.txt"; fail "sequential"; }
check "sequential keys" '
assert [c[2:] for c in L] == [["GET", "key:%012d" % (i % 50)] for i in range(120)], L[:5]'

# 3. a mix: SET 1 : GET 3 over 10 uniform keys, interleaved
"$DRIVER" redis --port "$FP" --keyspace 10 --requests 4000 --warmup 0 --pipeline 4 \
    --commands '[{"command": "SET __key__ __data__", "weight": 1}, {"command": "GET __key__", "weight": 3}]' \
    > "$T/out.json" 2> "$T/err.txt" || { cat "$T/err.txt"; fail "mix"; }
check "mix" '
import re
data = "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz01"
sets = [c for c in L if c[2] == "SET"]; gets = [c for c in L if c[2] == "GET"]
assert len(sets) + len(gets) == 4000 == len(L)
assert all(re.fullmatch(r"key:0000000000\d\d", c[3]) and int(c[3][4:]) < 10 for c in L)
assert all(c[4] == data for c in sets) and all(len(c) == 4 for c in gets)
assert 0.2 < len(sets) / 4000 < 0.3, len(sets)
runs = sum(1 for a, b in zip(L, L[1:]) if a[2] != b[2])
assert runs > 500, runs  # interleaved, not blocks
assert R["errors"]["protocol"] == 0 and R["errors"]["verify"] == 0
C = R["commands"]  # per command, beside the total: every batch was measured (--warmup 0)
assert [c["command"] for c in C] == ["SET __key__ __data__", "GET __key__"], C
assert C[0]["ops"] == len(sets) and C[1]["ops"] == len(gets) and C[0]["weight"] == 1, C
assert C[0]["latency_us"]["samples"] > 0 and C[1]["throughput"] > C[0]["throughput"], C'

# 4. a setup command answered with an error fails the run, naming it and the reply
assert_exit 3 "$DRIVER" redis --port "$FP" --command PING --requests 5 --warmup 0 \
    --setup '["SET a b", "HSET a f v"]' > "$T/out.json" 2> "$T/err.txt"
grep -q "setup command 2 of 2 'HSET a f v' failed: WRONGTYPE" "$T/err.txt" ||
    fail "setup error message: $(cat "$T/err.txt")"
# a command the server answers with errors is a failed run, with the first error kept
assert_exit 3 "$DRIVER" redis --port "$FP" --command 'GET h' --requests 20 --warmup 0 \
    > "$T/out.json" 2> "$T/err.txt"
grep -q '"first_error":"redis: WRONGTYPE' "$T/out.json" || fail "first error: $(cat "$T/out.json")"

# 5. refusals: the driver (exit 2, nothing sent)
check "nothing yet" 'pass'
assert_exit 2 "$DRIVER" redis --port "$FP" --command 'HDEL h __foo__' 2> "$T/err.txt"
grep -q "driver: redis: --command 'HDEL h __foo__': unknown placeholder '__foo__'" "$T/err.txt" ||
    fail "driver refusal: $(cat "$T/err.txt")"
assert_exit 2 "$DRIVER" redis --port "$FP" --command ' ' 2> "$T/err.txt"
grep -q "empty command" "$T/err.txt" || fail "empty: $(cat "$T/err.txt")"
assert_exit 2 "$DRIVER" redis --port "$FP" \
    --commands '[{"command": "GET a", "weight": 0}]' 2> "$T/err.txt"
grep -q '\[0\].weight: expected a positive number, got 0' "$T/err.txt" || fail "weight: $(cat "$T/err.txt")"
check "refused runs send nothing" 'assert L == [], L[:3]'

# ... and compare's grid validation, before any run
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "a", "server": {"redis": "redis-server --port {port}"}},
              {"name": "b", "server": {"redis": "redis-server --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0, "duration": 0.1}
JSON
for cfg in '"command": "HDEL h __foo__"|$.defaults.command: value "HDEL h __foo__": unknown placeholder' \
    '"command": []|$.defaults.command: value []: empty command' \
    '"commands": [{"command": "GET a", "weight": -2}]|$.defaults.commands: value [{"command":"GET a","weight":-2}]: [0].weight: expected a positive number, got -2' \
    '"setup": [{"command": "HSET h f__x__ v", "count": 2}]|$.defaults.setup: value [{"command":"HSET h f__x__ v","count":2}]: [0].command: unknown placeholder'; do
    printf '{"name": "g", "defaults": {"protocol": "redis", %s}}\n' "${cfg%%|*}" > "$T/grid.json"
    assert_exit 2 "$COMPARE" run --spec "$T/spec.json" --out "$T/run" 2> "$T/err.txt"
    grep -qF "${cfg#*|}" "$T/err.txt" || fail "compare refusal: $(cat "$T/err.txt")"
    [ ! -e "$T/run/data" ] || fail "compare measured before refusing"
done
echo ok
