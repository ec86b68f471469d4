#!/bin/sh
# pairbench-test: untimed
# Bad input is refused before anything runs: exit 2 and a message that names the file or
# flag, the JSON path, the bad value and what was expected; no run directory is written.
. "$(dirname "$0")/../lib.sh"

cat > "$T/grid.json" <<JSON
{"name": "g", "defaults": {"protocol": "tcp", "serve": true}}
JSON
good="{\"versions\": [{\"name\": \"a\"}, {\"name\": \"b\"}], \"grids\": [\"$T/grid.json\"]}"

# expect_bad NAME "expected message" compare-args...   (spec text in $T/NAME.json if present)
expect_bad() {
    name=$1; want=$2; shift 2
    rc=0
    "$COMPARE" "$@" > "$T/$name.out" 2> "$T/$name.err" || rc=$?
    assert_eq "$rc" 2 "$name: exit code"
    grep -qF -- "$want" "$T/$name.err" || fail "$name: stderr lacks '$want': $(cat "$T/$name.err")"
    [ ! -s "$T/$name.out" ] || fail "$name: something on stdout"
}
spec() { printf '%s\n' "$2" > "$T/$1.json"; }

spec good "$good"
spec malformed '{"versions": [{"name": "a"}],
  "grids": [oops]}'
expect_bad malformed "$T/malformed.json:2:16: malformed JSON: invalid token near 'oops'" run --spec "$T/malformed.json"

printf '{"name": "g", "axes": {"payload": [64, "4k"]}, "defaults": {"protocol": "tcp", "serve": true}}\n' > "$T/badgrid.json"
expect_bad badgrid "$T/badgrid.json: \$.axes.payload[1]: expected a positive integer (bytes), got \"4k\"" \
    run --spec "$T/good.json" --grid "$T/badgrid.json"

spec dup "{\"versions\": [{\"name\": \"a\"}, {\"name\": \"a\"}], \"grids\": [\"$T/grid.json\"]}"
expect_bad dup 'duplicate version name "a"' run --spec "$T/dup.json"

spec placeholder "{\"versions\": [{\"name\": \"a\", \"server\": {\"tcp\": \"srv --port {prot}\"}}], \"grids\": [\"$T/grid.json\"]}"
expect_bad placeholder "\$.versions[0].server.tcp: unknown placeholder '{prot}'" run --spec "$T/placeholder.json"

spec nodriver "{\"versions\": [{\"name\": \"a\", \"driver\": \"$T/no-such-driver\"}], \"grids\": [\"$T/grid.json\"]}"
expect_bad nodriver "\$.versions[0].driver: cannot find program '$T/no-such-driver'" run --spec "$T/nodriver.json"

spec noserver "{\"versions\": [{\"name\": \"a\", \"server\": {\"tcp\": \"no-such-server-xyz --port {port}\"}}], \"grids\": [\"$T/grid.json\"]}"
expect_bad noserver "\$.versions[0].server.tcp: cannot find program 'no-such-server-xyz'" run --spec "$T/noserver.json"

expect_bad shard "--shard: expected K/N with 1 <= K <= N, got '3/2'" run --spec "$T/good.json" --shard 3/2
expect_bad runs "--runs: expected an integer from 1 to 1000, got '0'" run --spec "$T/good.json" --runs 0
expect_bad duration "--duration: expected seconds from 0.001 to 86400, got '5s'" run --spec "$T/good.json" --duration 5s
expect_bad flag "compare run: unknown flag '--frobnicate' (see compare run --help)" run --spec "$T/good.json" --frobnicate
# One parser for every command: the same wording, --flag=value everywhere, a near miss named.
expect_bad near "compare run: unknown flag '--rnus' (did you mean '--runs'? see compare run --help)" run --spec "$T/good.json" --rnus 3
expect_bad runs_eq "compare run: --runs: expected an integer from 1 to 1000, got '0'" run --spec="$T/good.json" --runs=0
expect_bad gate_near "compare gate: unknown flag '--treshold' (did you mean '--threshold'?" gate --spec "$T/good.json" --treshold p99=5
expect_bad gate_eq "compare gate: --noise-limit: expected a percent in [0.1, 1000], got '0'" gate --spec "$T/good.json" --noise-limit=0
expect_bad drift_eq "compare drift: --window: expected a number of nights in [1, 365], got '0'" drift --history="$T/h" --window=0
expect_bad drift_missing "compare drift: --history: missing value" drift --history
expect_bad commits_flag "compare commits: unknown flag '--bogus'" commits --bogus
expect_bad merge_flag "compare merge: unknown flag '--outt' (did you mean '--out'?" merge --outt x
expect_bad calibrate_flag "compare calibrate: unknown flag '--dration' (did you mean '--duration'?" calibrate --dration 1
expect_bad demo_flag "compare demo: unknown flag '--spec'" demo --spec x
expect_bad report_lang "compare report: --lang: expected 'en' or 'zh', got 'fr'" report --lang=fr "$T"
expect_bad nospec "--spec FILE (or --baseline CMD --candidate CMD and a load) is required" run
expect_bad resume "--resume: needs --out DIR" run --spec "$T/good.json" --resume
expect_bad resume2 "holds no runs.jsonl" run --spec "$T/good.json" --resume --out "$T/empty"
expect_bad pin "--pin-driver: expected a CPU list like 0,2-3, got 'x'" run --spec "$T/good.json" --pin-driver x
expect_bad lang "--lang: expected 'en' or 'zh', got 'fr'" run --spec "$T/good.json" --lang fr
expect_bad report "compare report: '$T/nothing' holds no readable runs.jsonl" report "$T/nothing"
mkdir -p "$T/used"; echo '{}' > "$T/used/runs.jsonl"
expect_bad used "already holds a dataset (use --resume" run --spec "$T/good.json" --out "$T/used"
expect_bad unwritable "cannot create directory '/proc/pairbench-no-such-dir'" \
    run --spec "$T/good.json" --out /proc/pairbench-no-such-dir/run
[ ! -e "$T/empty" ] || fail "a run directory was created for bad input"
