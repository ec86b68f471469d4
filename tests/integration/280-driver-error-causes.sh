#!/bin/sh
# pairbench-test: untimed
# A run's first error is named in the result, with its cause, not as a bare count: a Redis
# server that wants a password (NOAUTH), an HTTP server answering 500, and a RESP bulk
# length past the driver's buffer bound. A --password-file others can read gets a warning.
# Cost: about 3 s.
. "$(dirname "$0")/../lib.sh"
need node
need redis-cli

expect_json() { # FILE EXPRESSIONS (one per line): every one must hold
    got=$(node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const bad = process.argv[2].split("\n").filter((e) => e.trim() && !(function () { return eval(e); }).call(d));
console.log(bad.length ? "failed: " + bad.join(" | ") + " in " + JSON.stringify(d) : "ok");
' "$1" "$2")
    [ "$got" = ok ] || fail "$1: $got"
}
run3() { # NAME driver-args...: the run must fail (exit 3) with its result printed
    name=$1; shift
    rc=0
    "$DRIVER" "$@" > "$T/$name.json" 2> "$T/$name.err" || rc=$?
    assert_eq "$rc" 3 "$name: exit code ($(tail -n 1 "$T/$name.err"))"
}

# 1. NOAUTH: every reply is the server's refusal
start_redis r1 redis-server --requirepass s3cret
run3 noauth redis --port "$REDIS_PORT" --requests 50 --warmup 0
expect_json "$T/noauth.json" '
this.status === "failed" && this.ops === 0 && this.errors.protocol === 50
this.first_error === "redis: NOAUTH Authentication required."'

# 2. the password file: readable by others → a warning; private → none
printf 's3cret\n' > "$T/pw"
chmod 644 "$T/pw"
"$DRIVER" redis --port "$REDIS_PORT" --auth --password-file "$T/pw" --requests 20 --warmup 0 \
    > /dev/null 2> "$T/pw.err" || fail "auth run: $(cat "$T/pw.err")"
grep -q "warning: --password-file '$T/pw' is readable by everyone (mode 644)" "$T/pw.err" \
    || fail "no warning for a world-readable password file: $(cat "$T/pw.err")"
chmod 600 "$T/pw"
"$DRIVER" redis --port "$REDIS_PORT" --auth --password-file "$T/pw" --requests 20 --warmup 0 \
    > /dev/null 2> "$T/pw.err" || fail "auth run: $(cat "$T/pw.err")"
[ ! -s "$T/pw.err" ] || fail "a private password file got: $(cat "$T/pw.err")"

# 3. HTTP 500 from a real HTTP server
node -e '
const s = require("http").createServer((q, r) => { r.statusCode = 500; r.end("oops"); });
s.listen(0, "127.0.0.1", () => console.log(s.address().port));
' > "$T/h500.port" &
PIDS="$PIDS $!"
i=0
until [ -s "$T/h500.port" ]; do [ $i -lt 100 ] || fail "500 server not up"; sleep 0.1; i=$((i + 1)); done
run3 h500 http --port "$(cat "$T/h500.port")" --requests 30 --warmup 0
expect_json "$T/h500.json" '
this.status === "failed" && this.errors.protocol === 30
this.first_error === "http: HTTP status 500 (expected 2xx)"'

# 4. a bulk length of 99999999999 bytes: refused at once as a malformed stream, with the cause
node "$TOP/tests/peers/bad_server.js" redis:huge:0:1 > "$T/bad.out" 2> "$T/bad.err" &
PIDS="$PIDS $!"
i=0
until grep -q ready "$T/bad.out" 2>/dev/null; do [ $i -lt 100 ] || fail "bad_server.js not up"; sleep 0.1; i=$((i + 1)); done
port=$(awk '$1 == "redis:huge:0:1" { print $2 }' "$T/bad.out")
run3 huge redis --port "$port" --duration 0.3 --warmup 0 --timeout 2
expect_json "$T/huge.json" '
this.status === "failed" && this.errors.protocol > 0 && this.errors.timeout === 0
/malformed reply stream: a bulk length of 99999999999 bytes, over the \d+-byte limit/.test(this.first_error)'
echo "ok: NOAUTH, HTTP 500 and a huge bulk length named; password file warning"
