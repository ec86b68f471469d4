#!/bin/sh
# pairbench-test: untimed
# A readiness probe whose answer is final fails the run at once with that answer instead of
# retrying until probe_timeout: a wrong Redis password (real redis-server with requirepass:
# AUTH answers WRONGPASS), a password the server wants but the configuration does not send
# (PING answers NOAUTH), and a TLS certificate that expired yesterday (made here with
# openssl). The reasons carry the server's answer and not "not ready after 30.0 s", and the
# server under test never sees the password in its environment. Cost: about 3 s.
. "$(dirname "$0")/../lib.sh"
need redis-server
need openssl
need node
sh "$TOP/tests/certs.sh" "$T/pki" > /dev/null
(
    cd "$T/pki"
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out exp.key 2>/dev/null
    openssl req -new -key exp.key -subj /CN=localhost -out exp.csr 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > exp.ext
    openssl x509 -req -in exp.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days -1 -sha256 \
        -extfile exp.ext -out exp.pem 2>/dev/null
    chmod 600 exp.key
)
reason_of() { # dir: the first run's reason
    node -e 'const l=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
console.log(l[0].status+" "+l[0].reason)' "$1/runs.jsonl"
}
plain="--port {port} --bind 127.0.0.1 --requirepass right-pw --save '' --appendonly no --dir {dir}"
for auth in true false; do
    cat > "$T/grid-$auth.json" <<JSON
{"name": "auth", "defaults": {"protocol": "redis", "auth": $auth}}
JSON
    cat > "$T/spec-$auth.json" <<JSON
{"versions": [{"name": "r", "server": {"redis": "redis-server $plain"},
               "env": {"PAIRBENCH_REDIS_PASSWORD": "wrong-pw"}}],
 "grids": ["$T/grid-$auth.json"], "runs": 1, "warmup": 0.1, "duration": 0.2,
 "probe_timeout": 30}
JSON
    rc=0
    "$COMPARE" run --spec "$T/spec-$auth.json" --out "$T/out-$auth" > /dev/null 2> "$T/err-$auth" || rc=$?
    assert_eq "$rc" 3 "exit code, auth $auth"
    r=$(reason_of "$T/out-$auth")
    case "$auth:$r" in
    "true:failed server not ready: 'redis-server "*"redis AUTH on '127.0.0.1:"*"' answered '-WRONGPASS "*) ;;
    "false:failed server not ready: 'redis-server "*"redis PING on '127.0.0.1:"*"' answered '-NOAUTH "*"set \"auth\": true"*) ;;
    *) fail "auth $auth: reason: $r" ;;
    esac
done

tls="--port 0 --tls-port {port} --bind 127.0.0.1 --tls-cert-file {cert} --tls-key-file {key} --tls-ca-cert-file {cacert} --tls-auth-clients no --save '' --appendonly no --dir {dir}"
cat > "$T/grid-tls.json" <<JSON
{"name": "tls", "defaults": {"protocol": "redis", "transport": "tls", "cacert": "$T/pki/ca.pem",
  "cert": "$T/pki/exp.pem", "key": "$T/pki/exp.key"}}
JSON
cat > "$T/spec-tls.json" <<JSON
{"versions": [{"name": "r", "server": {"redis": "redis-server $tls"}}],
 "grids": ["$T/grid-tls.json"], "runs": 1, "warmup": 0.1, "duration": 0.2, "probe_timeout": 30}
JSON
rc=0
"$COMPARE" run --spec "$T/spec-tls.json" --out "$T/out-tls" > /dev/null 2> "$T/err-tls" || rc=$?
assert_eq "$rc" 3 "exit code, expired certificate"
r=$(reason_of "$T/out-tls")
case "$r" in
"failed server not ready: 'redis-server "*"certificate verification failed: certificate has expired"*) ;;
*) fail "expired certificate: reason: $r" ;;
esac
exit 0
