#!/bin/sh
# pairbench-test: untimed
# The one-line form: `compare run --baseline CMD --candidate CMD --redis SET,GET --pipeline
# 1,16` builds the spec and grid itself (the demo's load: 4 connections on 4 workers, 64 B,
# window 1), prints the spec, keeps it in DIR/input/ and, with --save-spec, in a file that
# `compare run --spec` accepts and that gives the same configuration ids — the ids of the
# demo's grid too. --tcp, and `compare gate` in the same form; --connections 1,4 with workers
# min(4, connections); --workers, --window, --rate, --keyspace, --command and --setup become
# the grid's keys; bad combinations exit 2 naming the flag or the grid key, as a spec's would.
# Cost: about 40 s (real redis-server/valkey-server runs of 0.05 s windows).
. "$(dirname "$0")/../lib.sh"
need redis-server
need valkey-server
need node
cd "$T"
short="--runs 1 --warmup 0 --duration 0.05"
ids() { node -e 'console.log(require(require("path").resolve(process.argv[1], "meta.json")).configs.map(c=>c.id).sort().join(","))' "$1"; }

rc=0
"$COMPARE" run --baseline 'redis-server --port {port} --save "" --appendonly no' \
    --candidate 'valkey-server --port {port} --save "" --appendonly no' \
    --redis ECHO,SET,GET --pipeline 1,16 $short --out one --save-spec saved.json \
    > out1 2> err1 || rc=$?
[ $rc -eq 0 ] || { cat err1 >&2; fail "one-line run exited $rc"; }
grep -q '"valkey-server --port {port}' err1 || fail "the spec was not printed"
[ -s one/input/spec.json ] && [ -s one/input/grid.json ] || fail "no spec/grid in the run's input/"
[ -s saved.json ] && [ -s saved.grid.json ] || fail "--save-spec wrote no spec and grid"
assert_eq "$(json_get one/meta.json 'this.versions.map(v=>v.name).join(",")')" \
    "redis-server,valkey-server" "version names"
assert_eq "$(json_get one/meta.json 'this.configs.length')" 6 "configurations"

"$COMPARE" run --spec saved.json $short --out two > /dev/null 2> err2 ||
    { cat err2 >&2; fail "the saved spec was refused or failed"; }
assert_eq "$(ids two)" "$(ids one)" "ids of the saved spec's run"
"$COMPARE" run --spec saved.json --grid "$TOP/grids/demo.json" $short --out demo \
    > /dev/null 2> err3 || { cat err3 >&2; fail "the demo grid run failed"; }
assert_eq "$(ids demo)" "$(ids one)" "ids against the demo's grid"

# --tcp with the reference server, A/A: the versions are named baseline and candidate
"$COMPARE" run --baseline "$DRIVER serve tcp --port {port}" \
    --candidate "$DRIVER serve tcp --port {port}" --tcp --payload 64,4096 $short --out tcp \
    > /dev/null 2> err4 || { cat err4 >&2; fail "one-line --tcp failed"; }
assert_eq "$(json_get tcp/meta.json 'this.versions.map(v=>v.name).join(",")+" "+this.configs.length')" \
    "baseline,candidate 2" "tcp versions and rows"

# --connections 1,4: workers default to min(4, connections), one pair per count; --workers
# as given; the spec's refusal of more workers than connections
"$COMPARE" run --baseline "$DRIVER serve tcp --port {port}" \
    --candidate "$DRIVER serve tcp --port {port}" --tcp --connections 1,4 $short --out c14 \
    > /dev/null 2> err7 || { cat err7 >&2; fail "one-line --connections 1,4 failed"; }
assert_eq "$(json_get c14/meta.json 'this.configs.map(c=>c.params.connections+"/"+c.params.workers).sort().join(",")')" \
    "1/1,4/4" "connections/workers of --connections 1,4"
assert_eq "$(json_get c14/summary.json 'this.rows.map(r=>r.status).join(",")')" "ok,ok" "--connections 1,4 rows"
"$COMPARE" run --baseline "$DRIVER serve tcp --port {port}" \
    --candidate "$DRIVER serve tcp --port {port}" --tcp --connections 2 --workers 1,2 \
    --window 1,4 $short --out w12 > /dev/null 2> err8 || { cat err8 >&2; fail "--workers 1,2 failed"; }
assert_eq "$(json_get w12/meta.json 'this.configs.map(c=>c.params.workers+"/"+c.params.window).sort().join(",")')" \
    "1/1,1/4,2/1,2/4" "workers/window axes"
assert_exit 2 "$COMPARE" run --baseline a --candidate b --tcp --connections 1 --workers 4 2> e7
grep -q "key 'workers' is 4 but 'connections' is 1" e7 || fail "workers > connections not refused: $(cat e7)"

# the Redis load keys: a command template, its keyspace, a setup, a fixed rate
"$COMPARE" run --baseline 'redis-server --port {port} --save "" --appendonly no' \
    --candidate 'valkey-server --port {port} --save "" --appendonly no' \
    --command 'INCR counter:__rand_int__' --keyspace 100 --setup '["SET counter:0 5"]' \
    --rate 400 --connections 2 $short --out tmpl > /dev/null 2> err9 ||
    { cat err9 >&2; fail "one-line --command/--keyspace/--setup/--rate failed"; }
assert_eq "$(json_get tmpl/meta.json 'const p = this.configs[0].params; [p.protocol, p.command, p.keyspace, JSON.stringify(p.setup), p.rate, p.workers].join(" ")')" \
    'redis INCR counter:__rand_int__ 100 ["SET counter:0 5"] 400 2' "the template's configuration"
assert_eq "$(json_get tmpl/summary.json 'this.rows[0].status')" ok "the template's row"
assert_exit 2 "$COMPARE" run --baseline a --candidate b --tcp --keyspace 10 2> e8
grep -q "key 'keyspace' applies to protocol \"redis\" only" e8 || fail "--keyspace with --tcp: $(cat e8)"
assert_exit 2 "$COMPARE" run --baseline a --candidate b --redis GET --command 'GET x' 2> e9
grep -q -- '--command' e9 || fail "--redis with --command not refused: $(cat e9)"
assert_exit 2 "$COMPARE" run --baseline a --candidate b --tcp --rate fast 2> e10
grep -q -- "--rate 'fast'" e10 || fail "bad --rate not named: $(cat e10)"

# the gate takes the same form
rc=0
"$COMPARE" gate --baseline "$DRIVER serve tcp --port {port}" \
    --candidate "$DRIVER serve tcp --port {port}" --tcp $short --budget 0 --no-instructions --out gate \
    > gate.out 2> gate.err || rc=$?
case $rc in 0 | 4) ;; *) cat gate.err >&2; fail "one-line gate exited $rc" ;; esac
[ -s gate/gate.md ] && [ -s gate/input/spec.json ] || fail "the gate wrote no gate.md or spec"

# bad combinations: exit 2, naming the flag
assert_exit 2 "$COMPARE" run --baseline 'redis-server --port {port}' --redis SET 2> e1
grep -q -- '--candidate' e1 || fail "missing --candidate not named: $(cat e1)"
assert_exit 2 "$COMPARE" run --spec saved.json --baseline a --candidate b --tcp 2> e2
grep -q -- '--spec' e2 || fail "--spec with the one-line form not named: $(cat e2)"
assert_exit 2 "$COMPARE" run --baseline a --candidate b --redis SET --pipeline 1,x 2> e3
grep -q -- "--pipeline '1,x'" e3 || fail "bad --pipeline not named: $(cat e3)"
assert_exit 2 "$COMPARE" run --baseline a --candidate b --redis SET --tcp 2> e4
grep -q -- '--tcp' e4 || fail "two loads not refused: $(cat e4)"
assert_exit 2 "$COMPARE" run --baseline a --candidate b 2> e5
grep -q -- '--redis' e5 || fail "no load not refused: $(cat e5)"
assert_exit 2 "$COMPARE" run --baseline a --candidate b --redis __nope__ 2> e6
grep -q '__nope__' e6 || fail "bad command not named: $(cat e6)"
echo ok
