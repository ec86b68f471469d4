#!/bin/sh
# pairbench-test: timed
# The virtual clock (preload/clock.c) on servers other than redis: a server that never reads
# the clock nor waits in epoll/poll (a dynamically linked echo server built here, blocking in
# accept and read) is counted as before, exact, two versions of one binary counting the same
# window instructions, and its record says the clock was virtual; nginx's master and the
# worker it forks both carry the clock (a forked child continues its parent's clock and says
# so in the log), so the record says virtual for the two processes; valkey-server with
# --io-threads 2 at 8 connections is counted, not exact, its reason naming the I/O threads'
# polling as counted with the rest.
# Cost: about 45 s on 2 shared cores (small request counts).
. "$(dirname "$0")/../lib.sh"
need nginx
need valkey-server
need valgrind
need node
need cc

cat > "$T/echo.c" <<'C'
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    struct sockaddr_in a = {0};
    int one = 1, s = socket(AF_INET, SOCK_STREAM, 0);
    if (argc < 2)
        return 2;
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)atoi(argv[1]));
    a.sin_addr.s_addr = htonl(0x7f000001);
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 64))
        return 3;
    for (;;) {
        char b[4096];
        ssize_t n;
        int c = accept(s, 0, 0);
        if (c < 0)
            continue;
        while ((n = read(c, b, sizeof(b))) > 0)
            if (write(c, b, (size_t)n) != n)
                break;
        close(c);
    }
}
C
cc -O1 -o "$T/echo" "$T/echo.c" || fail "cc failed"
nm -D "$T/echo" | grep -q -E ' U (clock_gettime|gettimeofday|time|epoll_wait|poll)@' &&
    fail "the echo server should call no clock and no wait"

counted() { # dir -> per counted line: version|status|exact|clock kind|processes|window instructions|reason
    node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
for (const x of l) { const i = x.instructions || {}, f = i.fixed || {}, c = f.clock || {};
  console.log([x.version, x.status, f.exact, c.kind, f.processes, i.window_instructions, f.reason || x.reason].join("|")); }' "$1" | sort
}

echo '{"name": "echo", "defaults": {"protocol": "tcp"}}' > "$T/tcp-grid.json"
cat > "$T/echo.json" <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$T/echo {port}"}}, {"name": "b", "server": {"tcp": "$T/echo {port}"}}],
 "grids": ["$T/tcp-grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 1, "requests": 300, "warmup_requests": 50, "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/echo.json" --out "$T/e" > /dev/null 2> "$T/e.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/e.err" >&2; fail "compare run (echo server) exited $rc"; }
counted "$T/e" > "$T/e.lines"
a=$(sed -n 1p "$T/e.lines") b=$(sed -n 2p "$T/e.lines")
case $a in "a|ok|true|virtual|1|"*) ;; *) fail "echo server: expected ok, exact, virtual clock, one process; got '$a'" ;; esac
assert_eq "${b#b}" "${a#a}" "the echo server's two versions (one binary, one seed)"

# nginx: master and worker
mkdir -p "$T/ng" && head -c 4096 /dev/zero | tr '\0' x > "$T/ng/4k"
nginx_conf "$T/ng/nginx.conf.in" "$T/ng" "    server { listen 127.0.0.1:@PORT@; root $T/ng; }"
cat > "$T/ng/nginx.sh" <<SH
#!/bin/sh
sed "s/@PORT@/\$1/g" "$T/ng/nginx.conf.in" > "$T/ng/nginx-\$1.conf"
exec nginx -p "$T/ng" -c "$T/ng/nginx-\$1.conf" -e "$T/ng/error.log"
SH
chmod +x "$T/ng/nginx.sh"
echo '{"name": "ng", "defaults": {"protocol": "http", "path": "/4k"}}' > "$T/ng-grid.json"
cat > "$T/ng.json" <<JSON
{"versions": [{"name": "nginx", "server": {"http": "$T/ng/nginx.sh {port}"}}],
 "grids": ["$T/ng-grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 1, "requests": 300, "warmup_requests": 100, "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/ng.json" --out "$T/n" > /dev/null 2> "$T/n.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/n.err" >&2; fail "compare run (nginx) exited $rc"; }
case $(counted "$T/n") in
"nginx|ok|true|virtual|2|"*) ;;
*) fail "nginx: expected ok, exact, the virtual clock in master and worker (2 processes); got '$(counted "$T/n")'" ;;
esac

# valkey with I/O threads at 8 connections: counted, not exact, the reason names them. Few
# requests (24, 3 per connection): under valgrind the I/O threads' polling costs millions of instructions per request
# (about 3 requests a second), so 400 requests took 2.5 minutes of the window alone.
srv="valkey-server --io-threads 2 --port {port} --bind 127.0.0.1 --save '' --appendonly no --dir {dir}"
echo '{"name": "set", "defaults": {"protocol": "redis", "command": "SET", "connections": 8}}' > "$T/vk-grid.json"
cat > "$T/vk.json" <<JSON
{"versions": [{"name": "vk", "server": {"redis": "$srv"}}],
 "grids": ["$T/vk-grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 1, "requests": 24, "warmup_requests": 8, "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/vk.json" --out "$T/v" > /dev/null 2> "$T/v.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/v.err" >&2; fail "compare run (valkey --io-threads 2) exited $rc"; }
case $(counted "$T/v") in
"vk|ok|false|virtual|1|"*"8 connections"*"I/O threads (--io-threads) poll for work, counted with the rest"*) ;;
*) fail "valkey --io-threads 2: expected ok, not exact, the I/O threads named; got '$(counted "$T/v")'" ;;
esac
echo ok
