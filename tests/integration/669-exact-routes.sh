#!/bin/sh
# pairbench-test: untimed
# Exact counts are verified, not assumed (docs/statistics.md "Exact counts"): a tcp echo server
# whose work per request follows 8 random bytes drawn at start, through the route its first
# argument names. Drawn through openat64, fdopen+fread, pread and open("/dev//urandom") (one
# process, all four) the interposer serves them: exact, four /dev/urandom requests served and
# a repeat of the seed that counts the same. Drawn through a getrandom system call made by an
# inline syscall instruction, or an openat+read made so, the interposer cannot serve them:
# valgrind's trace of the server's system calls names the route, the line is not exact, and an
# A/A pair of such servers is never regressed (before: exact=true, A/A up to +887%).
# Cost: about 30 s on 2 shared cores (four versions, one repeat, small request counts).
. "$(dirname "$0")/../lib.sh"
need valgrind
need node
need cc

cat > "$T/srv.c" <<'C'
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
static long raw(long nr, long a, long b, long c)
{
    long rc;
    __asm__ volatile("syscall" : "=a"(rc) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return rc;
}
static unsigned long draw(const char *how)
{
    unsigned long v = 0, w = 0;
    int fd;
    FILE *f;
    if (strcmp(how, "served") == 0) { /* four routes, each 8 bytes */
        if ((fd = openat64(AT_FDCWD, "/dev/urandom", O_RDONLY)) < 0 || read(fd, &w, 8) != 8)
            exit(5);
        close(fd);
        v ^= w;
        if ((fd = open("/dev/urandom", O_RDONLY)) < 0 || !(f = fdopen(fd, "r")) ||
            fread(&w, 8, 1, f) != 1)
            exit(5);
        fclose(f);
        v ^= w;
        if ((fd = open("/dev/urandom", O_RDONLY)) < 0 || pread(fd, &w, 8, 0) != 8)
            exit(5);
        close(fd);
        v ^= w;
        if ((fd = open("/dev//urandom", O_RDONLY)) < 0 || read(fd, &w, 8) != 8)
            exit(5);
        close(fd);
        v ^= w;
    } else if (strcmp(how, "raw-getrandom") == 0) {
        if (raw(SYS_getrandom, (long)&v, 8, 0) != 8)
            exit(5);
    } else if (strcmp(how, "raw-open") == 0) {
        if ((fd = (int)raw(SYS_openat, AT_FDCWD, (long)"/dev/urandom", O_RDONLY)) < 0 ||
            raw(SYS_read, fd, (long)&v, 8) != 8)
            exit(5);
    } else {
        exit(6);
    }
    return v;
}
int main(int argc, char **argv)
{
    struct sockaddr_in a = {0};
    int one = 1, s;
    unsigned long spin;
    volatile unsigned long sink = 0;
    if (argc < 3)
        return 2;
    spin = 1000 + draw(argv[1]) % 50000;
    s = socket(AF_INET, SOCK_STREAM, 0);
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
        while ((n = read(c, b, sizeof(b))) > 0) {
            unsigned long i;
            for (i = 0; i < spin; i++)
                sink += i;
            if (write(c, b, (size_t)n) != n)
                break;
        }
        close(c);
    }
}
C
cc -O1 -o "$T/srv" "$T/srv.c" || fail "cc failed"

echo '{"name": "echo", "defaults": {"protocol": "tcp"}}' > "$T/grid.json"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "raw-a", "server": {"tcp": "$T/srv raw-getrandom {port}"}},
 {"name": "raw-b", "server": {"tcp": "$T/srv raw-getrandom {port}"}},
 {"name": "served", "server": {"tcp": "$T/srv served {port}"}},
 {"name": "raw-open", "server": {"tcp": "$T/srv raw-open {port}"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 1, "requests": 200, "warmup_requests": 50, "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/o" > /dev/null 2> "$T/o.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/o.err" >&2; fail "compare run exited $rc"; }

# version|status|exact|urandom calls|repeat change|unserved routes|reason
node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
for (const x of l) { const i = x.instructions || {}, f = i.fixed || {};
  console.log([x.version, x.status, f.exact, ((f.served || {})["/dev/urandom"] || {}).calls,
    f.repeat ? f.repeat.change : "", Object.keys(f.unserved || {}).join(","), f.reason].join("|")); }' \
    "$T/o" > "$T/lines"
grep -q '^served|ok|true|4|[-0-9.e]*||$' "$T/lines" ||
    fail "served routes: expected exact, 4 /dev/urandom requests served, a repeat; got: $(cat "$T/lines")"
node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).find(x => x.kind === "instructions" && x.version === "served");
const r = l.instructions.fixed.repeat;
if (!(Math.abs(r.change) <= r.tolerance && r.tolerance > 0)) process.exit(1);' "$T/o" ||
    fail "served routes: the repeat of the seed differs by more than its tolerance: $(cat "$T/lines")"
for v in raw-a raw-b; do
    grep -q "^$v|ok|false|||getrandom (a system call the interposer does not see)|randomness reached the server by a route the interposer did not serve: getrandom" "$T/lines" ||
        fail "$v: expected not exact, naming the raw getrandom; got: $(cat "$T/lines")"
done
grep -q '^raw-open|ok|false|||an open of /dev/urandom or /dev/random the interposer did not see|' "$T/lines" ||
    fail "raw-open: expected not exact, naming the unseen open; got: $(cat "$T/lines")"

# the A/A pair of raw getrandom servers: the runs' rule, never the seed pairs', never regressed
got=$(node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1] + "/summary.json", "utf8"));
const m = s.rows[0].metrics.instructions.vs_baseline["raw-b"];
console.log(m.exact.rule, m.verdict);' "$T/o")
case $got in
"runs regressed"* | "runs improved"* | "seed pairs"*) fail "raw A/A: expected the runs' rule and no verdict; got '$got'" ;;
"runs "*) ;;
*) fail "raw A/A: expected the runs' rule; got '$got'" ;;
esac
grep -q "getrandom (a system call the interposer does not see)" "$T/o/report.md" ||
    fail "report.md does not say why raw-a/raw-b are not exact"
