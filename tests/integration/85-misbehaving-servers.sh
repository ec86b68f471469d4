#!/bin/sh
# The driver against servers that misbehave (tests/peers/bad_server.js): for redis, http, ws
# and tcp, a server that closes mid-reply, sends garbage, declares an absurd length (RESP
# '$99999999999', Content-Length 10^15, a 63-bit WebSocket frame), stalls after reading
# (slowloris), or resets; each either from the first request or after answering 20 correctly.
# Every run must end within a generous bound of warm-up + duration + timeout (never hang),
# never die of a signal, and either exit 0 with the error counted in the JSON (and no more
# successful ops than the server answered) or exit 3 naming the problem on stderr.
. "$(dirname "$0")/../lib.sh"
need node

cp "$DRIVER" "$T/driver" # others rebuild bin/ while this runs
D=$T/driver
WARMUP=0 DURATION=0.3 TIMEOUT=0.5
# 3 x (warm-up + duration + timeout) + 5 s, in ms: generous, a hang is minutes
BOUND_MS=$(( 3 * (0 + 300 + 500) + 5000 ))

# proto mode good how  class (counted when exit 0)  stderr text (when exit 3)
# how: dur = --duration, 2 connections on 1 worker (good 0) or 2 workers (good 20);
#      req = --requests 2000 on 1 connection
cat > "$T/cases" <<'EOF_CASES'
redis close   0 dur io       closed by the server
redis close  20 dur io       closed by the server
redis close  20 req io       closed by the server
redis garbage 0 dur protocol malformed reply stream
redis garbage 20 dur protocol malformed reply stream
redis huge    0 dur timeout  timeout 2
redis huge   20 dur timeout  timeout 2
redis stall   0 dur timeout  timeout 2
redis stall  20 dur timeout  timeout 2
redis stall  20 req timeout  timeout 1
redis reset   0 dur io       reset by peer
redis reset  20 dur io       reset by peer
redis reset  20 req io       reset by peer
http close    0 dur io       closed by the server
http close   20 dur io       closed by the server
http close   20 req io       closed by the server
http garbage  0 dur protocol malformed reply stream
http garbage 20 dur protocol malformed reply stream
http huge     0 dur timeout  timeout 2
http huge    20 dur timeout  timeout 2
http stall    0 dur timeout  timeout 2
http stall   20 dur timeout  timeout 2
http stall   20 req timeout  timeout 1
http reset    0 dur io       reset by peer
http reset   20 dur io       reset by peer
ws close      0 dur io       closed by the server
ws close     20 dur io       closed by the server
ws close     20 req io       closed by the server
ws garbage    0 dur protocol malformed reply stream
ws garbage   20 dur protocol malformed reply stream
ws huge       0 dur protocol malformed reply stream
ws huge      20 dur protocol malformed reply stream
ws stall      0 dur timeout  handshake not answered
ws stall     20 dur timeout  timeout 2
ws stall     20 req timeout  timeout 1
ws reset      0 dur io       reset by peer
ws reset     20 dur io       reset by peer
ws reset     20 req io       reset by peer
tcp close     0 dur io       closed by the server
tcp close    20 dur io       closed by the server
tcp close    20 req io       closed by the server
tcp garbage   0 dur verify   verify
tcp garbage  20 dur verify   verify
tcp stall     0 dur timeout  timeout 2
tcp stall    20 dur timeout  timeout 2
tcp stall    20 req timeout  timeout 1
tcp reset     0 dur io       reset by peer
tcp reset    20 dur io       reset by peer
EOF_CASES

# one listener per case (each case gets its own server state)
specs=$(awk '{ printf "%s:%s:%s:%d ", $1, $2, $3, NR }' "$T/cases")
# shellcheck disable=SC2086
start_bg peers node "$TOP/tests/peers/bad_server.js" $specs
i=0
while ! grep -q '^ready$' "$T/peers.out" 2>/dev/null; do
    [ $i -lt 100 ] || { cat "$T/peers.err" >&2; fail "bad_server.js not ready after 10 s"; }
    kill -0 "$LAST_PID" 2>/dev/null || { cat "$T/peers.err" >&2; fail "bad_server.js died"; }
    sleep 0.1; i=$((i + 1))
done

# run_lane PROTO: that protocol's cases in order; one line per run to $T/lane-PROTO
run_lane() {
    trap - EXIT INT TERM
    lane=$1 nr=0
    while read -r proto mode good how class text; do
        nr=$((nr + 1))
        [ "$proto" = "$lane" ] || continue
        name="$proto:$mode:$good:$nr"
        port=$(awk -v s="$name" '$1 == s { print $2 }' "$T/peers.out")
        [ -n "$port" ] || fail "$name: no port"
        set -- "$proto" --port "$port" --payload 64 --warmup "$WARMUP" --timeout "$TIMEOUT"
        if [ "$how" = req ]; then
            set -- "$@" --requests 2000 --connections 1
        elif [ "$good" = 0 ]; then
            set -- "$@" --duration "$DURATION" --connections 2 --workers 1
        else
            set -- "$@" --duration "$DURATION" --connections 2 --workers 2
        fi
        t0=$(date +%s%N)
        rc=0
        out=$T/$proto.json err=$T/$proto.err
        "$D" "$@" > "$out" 2> "$err" < /dev/null || rc=$?
        ms=$(( ($(date +%s%N) - t0) / 1000000 ))
        what="$name ($how): driver $*"
        [ "$ms" -lt "$BOUND_MS" ] || fail "$what: took ${ms} ms (bound ${BOUND_MS} ms)"
        case $rc in
        0)
            echo "$name 0" >> "$T/lane-$proto"
            got=$(node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const e = d.errors || {};
console.log([d.ops, e[process.argv[2]], Object.values(e).reduce((a, b) => a + b, 0)].join(" "));
' "$out" "$class") || { cat "$out" >&2; fail "$what: exit 0 without a JSON result"; }
            set -- $got
            [ "$2" -gt 0 ] 2>/dev/null || fail "$what: exit 0 but errors.$class is '$2' (ops $1): $(cat "$out")"
            [ "$1" -le "$good" ] || fail "$what: $1 successful ops, the server answered only $good"
            if [ "$how" = req ]; then
                [ $(($1 + $3)) -le 2000 ] || fail "$what: ops $1 + errors $3 > --requests 2000"
            fi
            ;;
        3)
            echo "$name 3" >> "$T/lane-$proto"
            [ ! -s "$out" ] || fail "$what: exit 3 but stdout is not empty"
            grep -q "^driver: .*$text" "$err" || { cat "$err" >&2; fail "$what: exit 3, stderr lacks '$text'"; }
            ;;
        *)
            cat "$err" >&2
            fail "$what: exit $rc (expected 0 or 3; >128 is a signal)"
            ;;
        esac
    done < "$T/cases"
}

lanes=""
for proto in redis http ws tcp; do
    run_lane "$proto" &
    lanes="$lanes $!"
done
bad=0
for p in $lanes; do wait "$p" || bad=1; done
[ $bad = 0 ] || fail "a lane failed (see above)"
nr=$(cat "$T"/lane-* | wc -l)
n0=$(cat "$T"/lane-* | grep -c ' 0$' || true)
n3=$(cat "$T"/lane-* | grep -c ' 3$' || true)
assert_eq "$nr" "$(wc -l < "$T/cases")" "runs done"
kill -0 "$LAST_PID" 2>/dev/null || fail "bad_server.js died during the runs"
[ "$n0" -gt 0 ] && [ "$n3" -gt 0 ] || fail "expected both outcomes: $n0 exit 0, $n3 exit 3"
echo "misbehaving servers: $nr runs ($n0 exit 0 with the error counted, $n3 exit 3 naming it), none past ${BOUND_MS} ms"
