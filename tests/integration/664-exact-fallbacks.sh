#!/bin/sh
# pairbench-test: untimed
# Exact counted cost, where it cannot apply (docs/statistics.md "Exact counts"): a statically
# linked server is counted without the interposer, the record saying "statically linked"; a
# server that runs under a seccomp filter of its own (here redis-server exec'd by a wrapper
# that installs an allow-all filter) is counted, and the record says not exact with the
# seccomp reason; the same redis-server without the filter is exact, its idle work taken out
# by time-driven wake-ups (idle_method "wakeups", counted by the interposer's marker: run
# with the real clock, PAIRBENCH_CLOCK=real, as the virtual clock's idle server is never woken
# by time; test 666), and its record holds what was served (/dev/urandom through fopen64).
# Cost: about 40 s on 2 shared cores (small request counts).
. "$(dirname "$0")/../lib.sh"
need redis-server
need valgrind
need node
need cc

# one helper, built twice: static (a tcp echo server, one connection at a time) and dynamic
# (the seccomp wrapper)
cat > "$T/h.c" <<'C'
#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "seccomp-exec") == 0) {
        struct sock_filter f[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
        struct sock_fprog p = {1, f};
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &p))
            return 3;
        execvp(argv[2], argv + 2);
        return 4;
    }
    if (argc > 2 && strcmp(argv[1], "echo") == 0) {
        struct sockaddr_in a = {0};
        int one = 1, s = socket(AF_INET, SOCK_STREAM, 0);
        a.sin_family = AF_INET;
        a.sin_port = htons((unsigned short)atoi(argv[2]));
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
    return 2;
}
C
cc -O1 -static -o "$T/static-echo" "$T/h.c" || fail "cc -static (libc.a) failed"
cc -O1 -o "$T/seccomp-exec" "$T/h.c" || fail "cc failed"

counted() { # dir -> the counted lines, one a line: status exact reason method served-urandom
    node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
for (const x of l) { const i = x.instructions || {}, f = i.fixed || {};
  console.log([x.status, f.exact, f.reason, i.idle_method,
    ((f.served || {})["/dev/urandom"] || {}).bytes].join("|")); }' "$1"
}

# a static server: counted, not exact, the reason in the record
echo '{"name": "echo", "defaults": {"protocol": "tcp"}}' > "$T/tcp-grid.json"
cat > "$T/static.json" <<JSON
{"versions": [{"name": "static", "server": {"tcp": "$T/static-echo echo {port}"}}],
 "grids": ["$T/tcp-grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 1, "requests": 200, "warmup_requests": 50, "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/static.json" --out "$T/st" > /dev/null 2> "$T/st.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/st.err" >&2; fail "compare run (static server) exited $rc"; }
case $(counted "$T/st") in
"ok|false|"*"statically linked"*"|time|") ;;
*) fail "static server: expected ok, not exact, 'statically linked', by time; got '$(counted "$T/st")'" ;;
esac

# redis-server under a seccomp filter of its own, and without it
srv="redis-server --port {port} --bind 127.0.0.1 --save '' --appendonly no --dir {dir}"
write_grid "$T/grid.json" set '"protocol": "redis", "command": "SET", "keyspace": 1000'
write_spec "$T/spec.json" redis "$T/grid.json" '"runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 1, "requests": 500, "warmup_requests": 100, "idle_s": 0.3}' \
    plain "$srv" filtered "$T/seccomp-exec seccomp-exec $srv"
rc=0
PAIRBENCH_CLOCK=real "$COMPARE" run --spec "$T/spec.json" --out "$T/r" > /dev/null 2> "$T/r.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/r.err" >&2; fail "compare run (redis, seccomp) exited $rc"; }
counted "$T/r" > "$T/r.lines"
# on the real clock a repeat of the seed may differ past its tolerance (redis' timers follow
# real time: 500 SETs counted 6902.7 or 6914.0 per operation): then not exact, saying so
grep -q '^ok|true||wakeups|8192$' "$T/r.lines" ||
    grep -q '^ok|false|a repeat of seed 1 counted [^|]* per operation against [^|]*|wakeups|8192$' "$T/r.lines" ||
    fail "plain redis: expected exact (or a differing repeat), by wake-ups, 8192 bytes of /dev/urandom; got: $(cat "$T/r.lines")"
grep -q '^ok|false|process [0-9]* runs under a seccomp filter.*|' "$T/r.lines" ||
    fail "filtered redis: expected not exact with the seccomp reason; got: $(cat "$T/r.lines")"
