#!/bin/sh
# pairbench-test: untimed
# Bad input, table-driven: each case must exit 2 and say, on stderr, what was wrong — the
# file or flag, the JSON path, the bad value and what was expected. Nothing may run.
. "$(dirname "$0")/../lib.sh"
cd "$T"

good_grid='{"name": "g", "defaults": {"protocol": "tcp", "serve": true}}'
printf '%s\n' "$good_grid" > g.json
w() { printf '%s\n' "$2" > "$1"; }   # w FILE CONTENT
spec() { w "$1" "{\"versions\": [{\"name\": \"a\"}], \"grids\": [\"$2\"]}"; }

w s-malformed.json '{"versions": [{"name": "a"}], "grids": ["g.json"],}'
w s-unknown-key.json '{"versions": [{"name": "a", "bogus": 1}], "grids": ["g.json"]}'
w s-top-key.json '{"versions": [{"name": "a"}], "grids": ["g.json"], "rounds": 5}'
w s-dup.json '{"versions": [{"name": "a"}, {"name": "a"}], "grids": ["g.json"]}'
w s-placeholder.json '{"versions": [{"name": "a", "server": {"tcp": "srv --port {prot}"}}], "grids": ["g.json"]}'
w s-no-driver.json '{"versions": [{"name": "a", "driver": "/no/such/driver"}], "grids": ["g.json"]}'
w s-empty.json '{"versions": [], "grids": ["g.json"]}'
w s-runs0.json '{"versions": [{"name": "a"}], "grids": ["g.json"], "runs": 0}'
w s-runs-str.json '{"versions": [{"name": "a"}], "grids": ["g.json"], "runs": "5"}'
w s-bad-name.json '{"versions": [{"name": "a b"}], "grids": ["g.json"]}'
w s-env.json '{"versions": [{"name": "a", "env": {"X": 1}}], "grids": ["g.json"]}'
w s-nogrid.json '{"versions": [{"name": "a"}], "grids": ["missing.json"]}'
w s-duration.json '{"versions": [{"name": "a"}], "grids": ["g.json"], "duration": -1}'
w g-conn0.json '{"name": "g", "defaults": {"protocol": "tcp", "serve": true, "connections": 0}}'
w g-payload-str.json '{"name": "g", "defaults": {"protocol": "tcp", "serve": true}, "axes": {"payload": [64, "4k"]}}'
w g-proto.json '{"name": "g", "defaults": {"protocol": "smtp"}}'
w g-unknown.json '{"name": "g", "defaults": {"protocol": "tcp", "serve": true, "conections": 4}}'
w g-pipeline.json '{"name": "g", "defaults": {"protocol": "tcp", "serve": true, "pipeline": 1000000}}'
w g-axes-type.json '{"name": "g", "defaults": {"protocol": "tcp", "serve": true}, "axes": {"window": 4}}'
w g-transport.json '{"name": "g", "defaults": {"protocol": "tcp", "serve": true, "transport": "quic"}}'
w g-malformed.json '{"name": "g", "defaults": {"protocol": "tcp"'
for g in conn0 payload-str proto unknown pipeline axes-type transport malformed; do spec "s-g-$g.json" "g-$g.json"; done
w c-type.json '{"connections": "4"}'
w c-key.json '{"connection": 4}'
w c-malformed.json '{"connections": 4'

# expected-exit | substrings that must all appear (separated by ;) | command
cat > cases <<'CASES'
2|s-malformed.json:1:;malformed JSON|compare run --spec s-malformed.json
2|s-unknown-key.json;$.versions[0].bogus;unknown key 'bogus';expected one of|compare run --spec s-unknown-key.json
2|s-top-key.json;$.rounds;unknown key 'rounds'|compare run --spec s-top-key.json
2|s-dup.json;$.versions[1].name;duplicate version name "a"|compare run --spec s-dup.json
2|s-placeholder.json;$.versions[0].server.tcp;unknown placeholder '{prot}';expected one of|compare run --spec s-placeholder.json
2|/no/such/driver|compare run --spec s-no-driver.json
2|s-empty.json;$.versions;expected an array of 1 to 16 versions;got []|compare run --spec s-empty.json
2|s-runs0.json;$.runs;expected an integer from 1 to 1000;got 0|compare run --spec s-runs0.json
2|s-runs-str.json;$.runs;got "5"|compare run --spec s-runs-str.json
2|s-bad-name.json;$.versions[0].name;"a b"|compare run --spec s-bad-name.json
2|s-env.json;$.versions[0].env.X|compare run --spec s-env.json
2|missing.json;No such file or directory|compare run --spec s-nogrid.json
2|s-duration.json;$.duration;-1|compare run --spec s-duration.json
2|g-conn0.json;$.defaults.connections;expected an integer from 1 to 10000;got 0|compare run --spec s-g-conn0.json
2|g-payload-str.json;$.axes.payload[1];expected a positive integer;got "4k"|compare run --spec s-g-payload-str.json
2|g-proto.json;$.defaults.protocol;got "smtp"|compare run --spec s-g-proto.json
2|g-unknown.json;$.defaults.conections;unknown configuration key 'conections';expected one of|compare run --spec s-g-unknown.json
2|g-pipeline.json;$.defaults.pipeline;1000000|compare run --spec s-g-pipeline.json
2|g-axes-type.json;$.axes.window|compare run --spec s-g-axes-type.json
2|g-transport.json;$.defaults.transport;"quic"|compare run --spec s-g-transport.json
2|g-malformed.json:2:0;malformed JSON|compare run --spec s-g-malformed.json
2|--shard;'3/2';expected K/N|compare run --spec s-runs0.json --shard 3/2
2|--shard;'0/2'|compare run --spec s-runs0.json --shard 0/2
2|--runs;'x';expected an integer|compare run --runs x --spec s-dup.json
2|--warmup;'-1'|compare run --warmup -1 --spec s-dup.json
2|--lang;'fr';expected 'en' or 'zh'|compare run --lang fr --spec s-dup.json
2|--spec FILE (or --baseline CMD --candidate CMD and a load) is required|compare run
2|unknown command 'frob'|compare frob
2|/no/spec.json;No such file or directory|compare run --spec /no/spec.json
2|--threshold 'latency=5';unknown metric 'latency';expected throughput|compare gate --spec s-dup.json --threshold latency=5
2|--threshold 'throughput=abc';'abc'|compare gate --spec s-dup.json --threshold throughput=abc
2|--post-token-env 'NOPE_TOKEN_XYZ';not set|compare gate --spec s-dup.json --post http://127.0.0.1:9/x --post-token-env NOPE_TOKEN_XYZ
2|--history DIR is required|compare drift
2|/no/dir|compare report /no/dir
2|--pin-driver;'abc';expected a CPU list|compare run --pin-driver abc --spec s-dup.json
2|'--connections';'0';expected an integer in 1..10000|driver tcp --connections 0
2|'--payload';'abc';expected a size in bytes|driver tcp --payload abc
2|'--pipeline';'-1'|driver tcp --pipeline -1
2|unknown protocol 'bogus'|driver bogus
2|unknown flag '--nope'|driver tcp --nope
2|'--window';'99999';1..4096|driver tcp --window 99999
2|'--duration';'0'|driver tcp --duration 0
2|'--resp';'4';expected 2 or 3|driver redis --resp 4
2|'--transport';'udp';expected tcp or tls|driver tcp --transport udp
2|'--delay-us';'x'|driver serve tcp --delay-us x
2|c-type.json;'connections';'"4"';expected an integer|driver tcp --config c-type.json
2|c-key.json;unknown key 'connection'|driver tcp --config c-key.json
2|c-malformed.json|driver tcp --config c-malformed.json
2|/nonexist.json;No such file or directory|driver tcp --config /nonexist.json
2|'--http-version';'3';expected 1.1 or 2|driver http --http-version 3
2|--command;'__foo__';unknown placeholder|driver redis --command __foo__
CASES

n=0; bad=0
while IFS='|' read -r want subs cmd; do
    [ -n "$cmd" ] || continue
    n=$((n + 1))
    prog=${cmd%% *}; rest=${cmd#* }
    case $prog in compare) bin=$COMPARE ;; driver) bin=$DRIVER ;; esac
    rc=0
    # shellcheck disable=SC2086
    "$bin" $rest > out.txt 2> err.txt < /dev/null || rc=$?
    if [ "$rc" != "$want" ]; then
        printf 'case %d: `%s`: exit %s, expected %s: %s\n' $n "$cmd" $rc "$want" "$(head -c 300 err.txt)" >&2
        bad=$((bad + 1)); continue
    fi
    if grep -q "run failed\|runs recorded" err.txt; then
        printf 'case %d: `%s`: something ran despite bad input\n' $n "$cmd" >&2; bad=$((bad + 1)); continue
    fi
    oldifs=$IFS; IFS=';'
    for s in $subs; do
        if ! grep -qF -- "$s" err.txt; then
            printf 'case %d: `%s`: stderr lacks "%s": %s\n' $n "$cmd" "$s" "$(head -c 300 err.txt)" >&2
            bad=$((bad + 1))
        fi
    done
    IFS=$oldifs
done < cases
[ $n -ge 30 ] || fail "only $n cases"
[ $bad -eq 0 ] || fail "$bad of $n bad-input checks failed"
echo "$n bad inputs refused with clear messages"
