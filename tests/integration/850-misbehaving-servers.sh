#!/bin/sh
# pairbench-test: untimed
# The driver against servers that misbehave (tests/peers/bad_server.js): for redis, http, ws
# and tcp, a server that closes mid-reply, sends garbage, declares an absurd length (RESP
# '$99999999999', Content-Length 10^15, a 63-bit WebSocket frame), stalls after reading
# (slowloris), resets, answers twice, or floods an endless reply (a line, a header, a frame);
# each either from the first request or after answering 5 correctly;
# and the same faults hitting the TLS handshake. Every run must end (a run still going after
# 60 s is a hang: killed, and the test fails), a --requests run after fewer than 200 errors
# (not one reconnect per request), never die of a signal, and
# either exit 0 with the error counted in the JSON (and no more successful ops than the
# server answered: an error within the error limit), or exit 3 with the result still
# printed - "status": "failed", a reason, the error counted and its text in first_error -
# or, when no connection was ever made, exit 3 naming the problem on stderr.
. "$(dirname "$0")/../lib.sh"
need node
need timeout

cp "$DRIVER" "$T/driver" # others rebuild bin/ while this runs
D=$T/driver
WARMUP=0 DURATION=0.3 TIMEOUT=0.5

# proto mode good how  class (counted when exit 0)  stderr text (when exit 3)
# how: dur = --duration, 2 connections on 1 worker (good 0) or 2 workers (good 5);
#      req = --requests 2000 on 1 connection (before the fix, a server dropping every
#      request kept such a run going for 2000 reconnects: 50 s);
#      tls = dur with --transport tls against a plain server (the fault hits the handshake)
cat > "$T/cases" <<'EOF_CASES'
redis close   0 dur io       closed by the server
redis close   5 dur io       closed by the server
redis close   5 req io       closed by the server
redis garbage 0 dur protocol malformed reply stream
redis garbage 5 dur protocol malformed reply stream
redis huge    0 dur protocol a bulk length of
redis huge    5 dur protocol a bulk length of
redis stall   0 dur timeout  timeout 2
redis stall   5 dur timeout  timeout 2
redis stall   5 req timeout  timeout 1
redis reset   0 dur io       reset by peer
redis reset   5 dur io       reset by peer
redis reset   5 req io       reset by peer
redis double  5 dur protocol reply without a request
redis flood   0 dur protocol malformed reply stream
redis flood   5 dur protocol malformed reply stream
http close    0 dur io       closed by the server
http close    5 dur io       closed by the server
http close    5 req io       closed by the server
http garbage  0 dur protocol malformed reply stream
http garbage  5 dur protocol malformed reply stream
http huge     0 dur timeout  timeout 2
http huge     5 dur timeout  timeout 2
http stall    0 dur timeout  timeout 2
http stall    5 dur timeout  timeout 2
http stall    5 req timeout  timeout 1
http reset    0 dur io       reset by peer
http reset    5 dur io       reset by peer
http  double  5 dur protocol reply without a request
http  flood   0 dur protocol malformed reply stream
http  flood   5 dur protocol malformed reply stream
ws close      0 dur io       closed by the server
ws close      5 dur io       closed by the server
ws close      5 req io       closed by the server
ws garbage    0 dur protocol malformed reply stream
ws garbage    5 dur protocol malformed reply stream
ws huge       0 dur protocol malformed reply stream
ws huge       5 dur protocol malformed reply stream
ws stall      0 dur timeout  timed out after 0.5s (handshake not answered)
ws stall      5 dur timeout  timeout 2
ws stall      5 req timeout  timeout 1
ws reset      0 dur io       reset by peer
ws reset      5 dur io       reset by peer
ws reset      5 req io       reset by peer
ws    double  5 dur protocol reply without a request
ws    flood   0 dur protocol malformed reply stream
ws    flood   5 dur protocol malformed reply stream
tcp close     0 dur io       closed by the server
tcp close     5 dur io       closed by the server
tcp close     5 req io       closed by the server
tcp garbage   0 dur verify   verify
tcp garbage   5 dur verify   verify
tcp stall     0 dur timeout  timeout 2
tcp stall     5 dur timeout  timeout 2
tcp stall     5 req timeout  timeout 1
tcp reset     0 dur io       reset by peer
tcp reset     5 dur io       reset by peer
tcp   double  5 dur protocol reply without a request
tcp   flood   0 dur protocol reply without a request
tcp   flood   5 dur protocol reply without a request
tcp stall     0 tls connect  timed out after 0.5s (tls handshake)
tcp garbage   0 tls connect  tls handshake with
tcp close     0 tls connect  tls handshake with
tcp reset     0 tls connect  tls handshake with
EOF_CASES

# one node process per protocol (a flood on one lane must not slow the others), one
# listener per case (each case gets its own server state)
for proto in redis http ws tcp; do
    specs=$(awk -v p="$proto" '$1 == p { printf "%s:%s:%s:%d ", $1, $2, $3, NR }' "$T/cases")
    # shellcheck disable=SC2086
    start_bg "peers-$proto" node "$TOP/tests/peers/bad_server.js" $specs
    eval "peer_$proto=\$LAST_PID"
done
for proto in redis http ws tcp; do
    i=0
    while ! grep -q '^ready$' "$T/peers-$proto.out" 2>/dev/null; do
        [ $i -lt 100 ] || { cat "$T/peers-$proto.err" >&2; fail "bad_server.js ($proto) not ready after 10 s"; }
        sleep 0.1; i=$((i + 1))
    done
done

# run_lane PROTO: that protocol's cases in order; one line per run to $T/lane-PROTO
run_lane() {
    trap - EXIT INT TERM
    lane=$1 nr=0
    while read -r proto mode good how class text; do
        nr=$((nr + 1))
        [ "$proto" = "$lane" ] || continue
        name="$proto:$mode:$good:$nr"
        port=$(awk -v s="$name" '$1 == s { print $2 }' "$T/peers-$proto.out")
        [ -n "$port" ] || fail "$name: no port"
        set -- "$proto" --port "$port" --payload 64 --warmup "$WARMUP" --timeout "$TIMEOUT"
        case $how in
        tls) set -- "$@" --duration "$DURATION" --connections 2 --transport tls --insecure ;;
        req) set -- "$@" --requests 2000 --connections 1 ;;
        *)
            if [ "$good" = 0 ]; then
                set -- "$@" --duration "$DURATION" --connections 2 --workers 1
            else
                set -- "$@" --duration "$DURATION" --connections 2 --workers 2
            fi
            ;;
        esac
        rc=0
        out=$T/$proto.json err=$T/$proto.err
        # a hang is killed (exit 137) rather than hanging the suite
        timeout -s KILL 60 "$D" "$@" > "$out" 2> "$err" < /dev/null || rc=$?
        what="$name ($how): driver $*"
        [ "$rc" != 137 ] || fail "$what: still running after 60 s (a hang), killed"
        # --requests against a server that drops every request: the run ends on its own
        # bounds (a dozen or two errors), not after one reconnect per request
        if [ "$how" = req ] && [ -s "$out" ]; then
            nerr=$(json_get "$out" 'Object.values(this.errors).reduce((a, b) => a + b, 0)')
            [ "$nerr" -lt 200 ] || fail "$what: $nerr errors: one reconnect per request?"
        fi
        case $rc in
        0)
            got=$(node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const e = d.errors || {};
console.log([d.ops, e[process.argv[2]], Object.values(e).reduce((a, b) => a + b, 0)].join(" "));
' "$out" "$class") || { cat "$out" >&2; fail "$what: exit 0 without a JSON result"; }
            set -- $got
            [ "$mode" = double ] || [ "$1" -le "$good" ] \
                || fail "$what: $1 successful ops, the server answered only $good"
            if [ "$2" = 0 ] && [ "$3" = 0 ]; then
                # a loaded machine can end the window before the fault is reached; then
                # nothing may be wrong either
                echo "$name unreached" >> "$T/lane-$proto"
                continue
            fi
            [ "$2" -gt 0 ] 2>/dev/null || fail "$what: exit 0 but errors.$class is '$2' (ops $1): $(cat "$out")"
            if [ "$how" = req ]; then
                [ $(($1 + $3)) -le 2000 ] || fail "$what: ops $1 + errors $3 > --requests 2000"
            fi
            echo "$name 0" >> "$T/lane-$proto"
            ;;
        3)
            grep -q '^driver: ' "$err" || { cat "$err" >&2; fail "$what: exit 3, stderr silent"; }
            if [ -s "$out" ]; then
                got=$(node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const e = d.errors || {}, all = Object.values(e).reduce((a, b) => a + b, 0);
const good = d.status === "failed" && typeof d.reason === "string" && d.reason.length > 0 &&
  typeof d.first_error === "string" && d.first_error.length > 0 &&
  (e[process.argv[2]] > 0 || (d.ops === 0 && all > 0));
console.log(good ? d.ops : "bad " + JSON.stringify(d));
' "$out" "$class") || { cat "$out" >&2; fail "$what: exit 3 with stdout that is not a result"; }
                case $got in bad*) fail "$what: exit 3 result lacks the failure or the $class error: $got" ;; esac
                [ "$mode" = double ] || [ "$got" -le "$good" ] \
                    || fail "$what: $got successful ops, the server answered only $good"
            else
                grep -qF "$text" "$err" || { cat "$err" >&2; fail "$what: exit 3, stderr lacks '$text'"; }
            fi
            echo "$name 3" >> "$T/lane-$proto"
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
nu=$(cat "$T"/lane-* | grep -c ' unreached$' || true)
assert_eq "$nr" "$(wc -l < "$T/cases")" "runs done"
for proto in redis http ws tcp; do
    eval "p=\$peer_$proto"
    kill -0 "$p" 2>/dev/null || fail "bad_server.js ($proto) died during the runs"
done
# every fault reached costs at least one error against at most 5 successes: past the 1%
# error limit, so no run that reached its fault may pass
[ "$n0" -eq 0 ] && [ "$n3" -gt 0 ] || fail "expected every reached fault to fail the run: $n0 exit 0, $n3 exit 3"
[ "$nu" -le $((n0 / 2)) ] || fail "$nu runs never reached the fault (machine too loaded?)"
echo "misbehaving servers: $nr runs ($n3 exit 3 naming the error, $nu ended before the fault), none hung"
