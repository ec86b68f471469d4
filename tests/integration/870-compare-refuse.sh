#!/bin/sh
# pairbench-test: untimed
# compare refuses, before any run, what would waste every run or send traffic off the machine,
# with exit 2 and a message naming the flag or file, the key, the value and what was expected:
# --pin-driver/--pin-server on a CPU that is not present; workers > connections; a server
# command without {port}; a grid host that is not this machine when compare starts the server
# (no packet is sent: nothing runs); --out naming a file; --spec naming a directory; a version
# name over 64 characters. hash_sources naming a file that never ends (/proc/self/pagemap)
# is bounded. The server under test does not inherit PAIRBENCH_REDIS_PASSWORD/USER (the driver
# does). Cost: about 3 s (two 0.1 + 0.2 s runs).
. "$(dirname "$0")/../lib.sh"
need node
cd "$T"
cat > grid.json <<'JSON'
{"name": "one", "defaults": {"protocol": "tcp", "connections": 1}}
JSON
cat > spec.json <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.2}
JSON
refused() { # expected-message-part cmd...: exit 2, message on stderr, nothing written
    want=$1; shift
    rc=0; "$@" > out.txt 2> err.txt || rc=$?
    assert_eq "$rc" 2 "exit code of: $* ($(cat err.txt))"
    grep -qF -- "$want" err.txt || fail "message of '$*': $(cat err.txt), expected: $want"
}
ncpu=$(nproc)
refused "--pin-driver '99': CPU 99 is not available (this process may use CPUs 0" \
    "$COMPARE" run --spec spec.json --out r1 --pin-driver 99
refused "--pin-server '0,$ncpu': CPU $ncpu is not available" \
    "$COMPARE" run --spec spec.json --out r1 --pin-server "0,$ncpu"
[ ! -e r1 ] || fail "a refused run wrote its directory"

cat > g-workers.json <<'JSON'
{"name": "w", "defaults": {"protocol": "tcp", "connections": 2, "workers": 4}}
JSON
refused "g-workers.json: configuration 'tcp · 64 B · window1 · 4 workers · 2 clients': key 'workers' is 4 but 'connections' is 2 (expected workers <= connections" \
    "$COMPARE" run --spec spec.json --grid g-workers.json --out r2

cat > s-noport.json <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$DRIVER serve tcp --port 6553"}}], "grids": ["grid.json"]}
JSON
refused "s-noport.json: \$.versions[0].server.tcp: expected a command with the {port} placeholder" \
    "$COMPARE" run --spec s-noport.json --out r3

# 192.0.2.1 is TEST-NET-1 (documentation only): never on this machine, and never contacted
cat > g-host.json <<'JSON'
{"name": "h", "defaults": {"protocol": "tcp", "host": "192.0.2.1"}}
JSON
refused "g-host.json: configuration 'tcp · 64 B · window1 · 1 client': key 'host' is \"192.0.2.1\", not an address of this machine" \
    "$COMPARE" run --spec spec.json --grid g-host.json --out r4
cat > g-host2.json <<'JSON'
{"name": "h", "defaults": {"protocol": "tcp", "serve": true, "host": "example.invalid"}}
JSON
refused "key 'host' is \"example.invalid\", not an address of this machine" \
    "$COMPARE" run --spec spec.json --grid g-host2.json --out r4

: > afile
refused "--out 'afile': not a directory" "$COMPARE" run --spec spec.json --out afile
mkdir adir
refused "adir: is a directory (expected a JSON file)" "$COMPARE" run --spec adir --out r5
long=$(printf 'v%.0s' $(seq 1 65))
cat > s-long.json <<JSON
{"versions": [{"name": "$long", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}], "grids": ["grid.json"]}
JSON
refused "expected a name of 1 to 64 letters" "$COMPARE" run --spec s-long.json --out r6

# the server's environment has no credentials; the driver's has them. The driver, which runs
# while the server is up, copies the running server's /proc/PID/environ (the server's shell
# wrapper records its PID, then execs the server in that process)
cat > dump-driver <<SH
#!/bin/sh
env > "$T/driver-env.txt"
tr '\\0' '\\n' < "/proc/\$(cat "$T/server.pid")/environ" > "$T/server-env.txt"
exec "$DRIVER" "\$@"
SH
chmod +x dump-driver
cat > s-env.json <<JSON
{"versions": [{"name": "a", "driver": "$T/dump-driver",
   "env": {"PAIRBENCH_REDIS_USER": "bob"},
   "server": {"tcp": "sh -c 'echo \$\$ > $T/server.pid; exec $DRIVER serve tcp --port \"\$0\"' {port}"}}],
 "grids": ["grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.2,
 "hash_sources": ["/proc/self/pagemap"]}
JSON
rc=0
PAIRBENCH_REDIS_PASSWORD=pw-s3cret timeout 120 "$COMPARE" run --spec s-env.json --out r7 > /dev/null 2> err7.txt || rc=$?
assert_eq "$rc" 0 "run with a dumped environment ($(tail -n 3 err7.txt))"
grep -q "^PATH=" server-env.txt || fail "the server's environment was not read: $(cat server-env.txt)"
grep -q "pw-s3cret\|PAIRBENCH_REDIS" server-env.txt && fail "the server inherited credentials: $(grep PAIRBENCH server-env.txt)"
grep -q "^PAIRBENCH_REDIS_PASSWORD=pw-s3cret$" driver-env.txt || fail "the driver lost the password"
grep -q "^PAIRBENCH_REDIS_USER=bob$" driver-env.txt || fail "the driver lost the user"
grep -q "hash_sources: sha256: '/proc/self/pagemap': longer than 64 MiB" err7.txt \
    || fail "hash_sources on a file that never ends: $(cat err7.txt)"
exit 0
