# Shared helpers for integration tests (POSIX sh). Source it; it sets up a temp dir that is
# removed on exit together with every process started through start_bg.
set -eu
TOP=${PAIRBENCH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
DRIVER=${BIN_DRIVER:-$TOP/bin/driver}
COMPARE=${BIN_COMPARE:-$TOP/bin/compare}
T=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-it.XXXXXX")
PIDS=""

cleanup() {
    for p in $PIDS; do kill "$p" 2>/dev/null || true; done
    if [ -f "$T/.ports" ]; then
        while read -r p; do rm -rf "$PORT_CLAIMS/$p"; done < "$T/.ports"
    fi
    for p in $PIDS; do
        i=0
        while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill -9 "$p" 2>/dev/null || true
    done
    [ -n "${KEEP_TMP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# fd 7 keeps the test's own stderr: a check that fails inside a command whose stderr goes to
# a file (assert_exit 1 cmd 2> x.err) still says why in the test's log
exec 7>&2
fail() { printf 'FAIL: %s\n' "$*" >&7; exit 1; }
skip() { printf 'skipped: %s\n' "$*"; exit 77; }
need() { # a required peer: missing fails (in CI too), never silently skips
    command -v "$1" >/dev/null 2>&1 || fail "required program '$1' not found (run ci/install-deps.sh)"
}

# A free TCP port on loopback (bound then released by the kernel's choice), claimed for this
# test until its cleanup: with tests running two at a time (tests/run.sh -j2) the kernel may
# hand a port just released by one test to the other before the first binds it again, so a
# port is taken only when mkdir PORT_CLAIMS/PORT succeeds. A claim whose test's temp dir is
# gone (a test killed before its cleanup) is stale and taken over.
PORT_CLAIMS=${TMPDIR:-/tmp}/pairbench-ports
free_port_pick() {
    python3 - <<'PY' 2>/dev/null || node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
PY
}
free_port() {
    mkdir -p "$PORT_CLAIMS"
    fp_i=0
    while :; do
        fp_p=$(free_port_pick)
        if mkdir "$PORT_CLAIMS/$fp_p" 2>/dev/null; then break; fi
        fp_owner=$(cat "$PORT_CLAIMS/$fp_p/owner" 2>/dev/null || true)
        if [ -n "$fp_owner" ] && [ ! -d "$fp_owner" ]; then
            echo "$T" > "$PORT_CLAIMS/$fp_p/owner"; break
        fi
        fp_i=$((fp_i + 1))
        [ $fp_i -lt 50 ] || fail "no free loopback port left unclaimed in $PORT_CLAIMS"
    done
    echo "$T" > "$PORT_CLAIMS/$fp_p/owner"
    echo "$fp_p" >> "$T/.ports"
    echo "$fp_p"
}

# A driver binary valgrind can run: this build's, or on the sanitized pass the plain build's
# (valgrind cannot run an AddressSanitizer build); nothing when there is none.
valgrind_driver() {
    case ${PAIRBENCH_BUILD:-build} in
    *san*) if [ -x "$TOP/bin/driver" ]; then echo "$TOP/bin/driver"; fi ;;
    *) echo "$DRIVER" ;;
    esac
}

# start_bg LOGNAME cmd...: start a process in the background, remember it for cleanup.
start_bg() {
    name=$1; shift
    "$@" > "$T/$name.out" 2> "$T/$name.err" &
    LAST_PID=$!
    PIDS="$PIDS $LAST_PID"
}

# port_open PORT: whether something accepts on 127.0.0.1:PORT now.
port_open() {
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    command -v socat >/dev/null 2>&1 && socat -T1 /dev/null "TCP:127.0.0.1:$1" 2>/dev/null
}

# wait_port PORT [SECONDS]: until something accepts on 127.0.0.1:PORT.
wait_port() {
    i=0; limit=$(( ${2:-10} * 10 ))
    while [ $i -lt $limit ]; do
        if port_open "$1"; then return 0; fi
        sleep 0.1; i=$((i + 1))
    done
    fail "nothing listening on 127.0.0.1:$1 after ${2:-10}s"
}

# start_redis NAME [server-binary] [extra args...]: real redis/valkey on a free port, in $T/NAME.
# Sets REDIS_PORT.
start_redis() {
    name=$1; bin=${2:-redis-server}; shift; [ $# -gt 0 ] && shift
    need "$bin"
    REDIS_PORT=$(free_port)
    mkdir -p "$T/$name"
    start_bg "$name" "$bin" --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
        --dir "$T/$name" "$@"
    wait_port "$REDIS_PORT"
}

# nginx_conf FILE DIR HTTP-TEXT: writes FILE, the configuration of a real nginx in the
# foreground (a master and one worker; pid file, error log DIR/error.log and temp files in
# DIR) whose http block holds HTTP-TEXT after the common settings: keepalive_requests 1000000,
# and "access_log off" unless HTTP-TEXT has an access_log of its own. Run as root, the worker
# stays root ("user root;"): switched to nobody it could read nothing under $T (mode 0700)
# and would be out of valgrind's reach. The pid file is DIR/nginx-@PORT@.pid: @PORT@ and any
# other placeholder in HTTP-TEXT are left for the caller to replace.
nginx_conf() {
    ngx_file=$1; ngx_dir=$2; ngx_text=$3
    mkdir -p "$ngx_dir/tmp"
    ngx_user=""
    [ "$(id -u)" = 0 ] && ngx_user="user root;"
    ngx_log="access_log off;"
    case $ngx_text in *access_log*) ngx_log="" ;; esac
    cat > "$ngx_file" <<EOF
daemon off;
worker_processes 1;
$ngx_user
pid $ngx_dir/nginx-@PORT@.pid;
error_log $ngx_dir/error.log warn;
events { worker_connections 512; }
http {
    $ngx_log
    client_body_temp_path $ngx_dir/tmp/body;
    proxy_temp_path $ngx_dir/tmp/proxy;
    fastcgi_temp_path $ngx_dir/tmp/fastcgi;
    uwsgi_temp_path $ngx_dir/tmp/uwsgi;
    scgi_temp_path $ngx_dir/tmp/scgi;
    keepalive_requests 1000000;
$ngx_text
}
EOF
}

# start_nginx NAME HTTP-TEXT: a real nginx (nginx_conf) with its files in $T/NAME, on free
# loopback ports: @PORT@ in HTTP-TEXT becomes NGINX_PORT, @PORT2@ NGINX_PORT2 (both set).
# Waits until every port used accepts and fails, with nginx's error log, if nginx exits or
# does not listen within 10 s. The cleanup trap stops it.
start_nginx() {
    need nginx
    ngx_name=$1; ngx_dir=$T/$1
    NGINX_PORT=$(free_port)
    NGINX_PORT2=$(free_port)
    while [ "$NGINX_PORT2" = "$NGINX_PORT" ]; do NGINX_PORT2=$(free_port); done
    nginx_conf "$ngx_dir/nginx.conf.in" "$ngx_dir" "$2"
    sed -e "s/@PORT@/$NGINX_PORT/g" -e "s/@PORT2@/$NGINX_PORT2/g" "$ngx_dir/nginx.conf.in" \
        > "$ngx_dir/nginx.conf"
    start_bg "$ngx_name" nginx -p "$ngx_dir" -c "$ngx_dir/nginx.conf" -e "$ngx_dir/error.log"
    ngx_pid=$LAST_PID
    ngx_ports=$NGINX_PORT
    case $2 in *@PORT2@*) ngx_ports="$ngx_ports $NGINX_PORT2" ;; esac
    for ngx_p in $ngx_ports; do
        i=0
        until port_open "$ngx_p"; do
            kill -0 "$ngx_pid" 2>/dev/null ||
                fail "nginx '$ngx_name' exited: $(cat "$ngx_dir/error.log" "$T/$ngx_name.err" 2>/dev/null)"
            [ $i -lt 100 ] ||
                fail "nginx '$ngx_name' not listening on 127.0.0.1:$ngx_p after 10s: $(cat "$ngx_dir/error.log" 2>/dev/null)"
            sleep 0.1; i=$((i + 1))
        done
    done
}

# redis_calls PORT COMMAND: the server's calls of COMMAND (lower case) since the last
# CONFIG RESETSTAT, from INFO commandstats (0 when none).
redis_calls() {
    c=$(redis-cli -p "$1" INFO commandstats | tr -d '\r' |
        sed -n "s/^cmdstat_$2:calls=\([0-9]*\),.*/\1/p")
    printf '%s\n' "${c:-0}"
}

# json_get FILE-or--  EXPR: evaluate a jq-like JS expression on a JSON document with node.
json_get() {
    node -e 'const fs=require("fs");const d=JSON.parse(fs.readFileSync(process.argv[1]==="-"?0:process.argv[1],"utf8"));const v=(function(){return eval(process.argv[2]);}).call(d);console.log(typeof v==="object"?JSON.stringify(v):String(v));' "$1" "$2"
}

# run_stopped OUT ERR CMD...: runs CMD (a driver with --warmup 0.5) in the background and
# stops it (SIGSTOP) from 0.45 s to 1.05 s after its start: descheduled from before its
# window opens to after it should close. Its exit code goes to RC.
run_stopped() {
    out=$1; err=$2; shift 2
    "$@" > "$out" 2> "$err" &
    stopped_pid=$!
    sleep 0.45
    kill -STOP "$stopped_pid"
    sleep 0.6
    kill -CONT "$stopped_pid"
    RC=0; wait "$stopped_pid" || RC=$?
}

# gha_context FILE GITHUB-JSON [MORE-KEYS]: a context for tests/gha_run.py as this machine
# runs the recipes: the github object given, the repository variables the recipes read, and
# the two lines it cannot run as written (sudo; rebuilding pairbench: the binaries under test
# are used). MORE-KEYS: further top-level keys, written with a leading comma.
gha_context() {
    cat > "$1" <<JSON
{"github": $2${3:-},
 "vars": {"PAIRBENCH_REPO": "owner/pairbench", "PAIRBENCH_REF": "v0.9.0", "PAIRBENCH_BISECT": ""},
 "rewrite": [["sudo sh pairbench/ci/install-deps.sh", "sh pairbench/ci/install-deps.sh --check"],
             ["make -C pairbench", "true"]]}
JSON
}

# write_grid FILE NAME DEFAULTS [AXES]: a one-grid file, e.g.
#   write_grid "$T/grid.json" t '"protocol": "tcp", "connections": 1' '"rate": ["10%"]'
write_grid() {
    if [ -n "${4:-}" ]; then
        printf '{"name": "%s", "defaults": {%s},\n "axes": {%s}}\n' "$2" "$3" "$4" > "$1"
    else
        printf '{"name": "%s", "defaults": {%s}}\n' "$2" "$3" > "$1"
    fi
}

# write_spec FILE PROTOCOL GRID REST NAME CMD [NAME CMD]...: a spec whose versions each start
# one server of PROTOCOL with CMD ({port} and the other placeholders left for compare), on
# GRID, then REST (the spec's other keys, e.g. '"runs": 1, "warmup": 0.2, "duration": 1').
# CMD goes into a JSON string as given: it must hold no double quote or backslash.
write_spec() {
    ws_file=$1; ws_proto=$2; ws_grid=$3; ws_rest=$4; shift 4
    ws_sep='{"versions": ['
    : > "$ws_file"
    while [ $# -ge 2 ]; do
        printf '%s\n   {"name": "%s", "server": {"%s": "%s"}}' "$ws_sep" "$1" "$ws_proto" "$2" >> "$ws_file"
        ws_sep=','; shift 2
    done
    printf '],\n "grids": ["%s"], %s}\n' "$ws_grid" "$ws_rest" >> "$ws_file"
}

# old_driver OUT DRIVER FLAG KEY: writes OUT, a driver from before FLAG: its --help hides
# FLAG and a --config file that sets KEY is refused as an old driver refuses an unknown key;
# every other call runs DRIVER.
old_driver() {
    cat > "$1" <<SH
#!/bin/sh
if [ "\${1:-}" = --help ]; then "$2" --help | grep -v -- $3; exit 0; fi
prev=""
for a in "\$@"; do
    if [ "\$prev" = --config ] && grep -q '"$4"' "\$a"; then
        echo "driver: --config '\$a': \$.$4: unknown key" >&2; exit 2
    fi
    prev=\$a
done
exec "$2" "\$@"
SH
    chmod +x "$1"
}

assert_eq() { [ "$1" = "$2" ] || fail "${3:-values differ}: got '$1', expected '$2'"; }
assert_exit() { # expected-code cmd...
    want=$1; shift
    set +e; "$@"; got=$?; set -e
    [ "$got" = "$want" ] || fail "exit $got, expected $want: $*"
}
