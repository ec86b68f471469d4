# TLS helpers for the 30-39 integration tests (POSIX sh). Source after tests/lib.sh.
#   tls_pki                     makes the test PKI into $PKI (tests/certs.sh)
#   start_redis_tls NAME BIN CERT AUTH [args...]
#                               redis-server/valkey-server with TLS only (--port 0) on a free
#                               port, serving $PKI/CERT.pem, --tls-auth-clients AUTH; sets
#                               TLS_PORT
#   drv NAME args...            runs the driver: stdout $T/NAME.json, stderr $T/NAME.err,
#                               exit code in RC (never aborts the test)
#   assert_clean_run NAME [JS...]  RC 0 now; at check_runs: ops > 0, every error counter 0,
#                               transport tls and each JS condition (this = the result) true
#   check_runs                  checks every recorded result in one node process (call last)
#   assert_err NAME TEXT        $T/NAME.err contains TEXT

tls_pki() {
    need openssl
    PKI=$T/pki
    sh "$TOP/tests/certs.sh" "$PKI" || fail "tests/certs.sh failed"
}

start_redis_tls() {
    name=$1; bin=$2; cert=$3; auth=$4; shift 4
    need "$bin"
    TLS_PORT=$(free_port)
    mkdir -p "$T/$name"
    start_bg "$name" "$bin" --port 0 --tls-port "$TLS_PORT" --bind 127.0.0.1 \
        --tls-cert-file "$PKI/$cert.pem" --tls-key-file "$PKI/$cert.key" \
        --tls-ca-cert-file "$PKI/ca.pem" --tls-auth-clients "$auth" \
        --save '' --appendonly no --dir "$T/$name" "$@"
    wait_port "$TLS_PORT"
}

drv() {
    name=$1; shift
    set +e
    "$DRIVER" "$@" > "$T/$name.json" 2> "$T/$name.err"
    RC=$?
    set -e
}

assert_clean_run() { # NAME [JS-CONDITION...]: exit 0 now; the result is checked by check_runs
    [ "$RC" = 0 ] || fail "$1: driver exit $RC: $(cat "$T/$1.err")"
    f=$1; shift
    printf '%s\t\n' "$f" >> "$T/checks.tsv"
    for c in "$@"; do printf '%s\t%s\n' "$f" "$c" >> "$T/checks.tsv"; done
}

check_runs() { # one node process for every result recorded by assert_clean_run
    [ -s "$T/checks.tsv" ] || return 0
    node -e '
const fs = require("fs"), dir = process.argv[1], bad = [];
for (const line of fs.readFileSync(dir + "/checks.tsv", "utf8").split("\n")) {
    if (!line) continue;
    const [name, cond] = line.split("\t");
    let d;
    try { d = JSON.parse(fs.readFileSync(dir + "/" + name + ".json", "utf8")); }
    catch (e) { bad.push(name + ": no JSON result: " + e.message); continue; }
    if (cond) {
        if (!(function () { return eval(cond); }).call(d)) bad.push(name + ": not " + cond);
        continue;
    }
    if (!(d.ops > 0)) bad.push(name + ": ops " + d.ops);
    if (Object.values(d.errors).some((v) => v !== 0)) bad.push(name + ": errors " + JSON.stringify(d.errors));
    if (d.transport !== "tls") bad.push(name + ": transport " + d.transport);
}
if (bad.length) { console.error(bad.join("\n")); process.exit(1); }' "$T" || fail "results above"
}

assert_err() {
    grep -q -F -- "$2" "$T/$1.err" || fail "$1: stderr lacks '$2': $(cat "$T/$1.err")"
}
