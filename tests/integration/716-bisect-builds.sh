#!/bin/sh
# pairbench-test: untimed
# Builds of `compare commits` and `compare bisect` end cleanly (docs/cli.md): a build still
# running after --build-timeout fails with that cause and its process group is stopped; SIGINT
# during a bisect's build stops the build's process group (no sleep of it left), exits 3 with
# the bisect's own --resume --out, and leaves bisect.json (written from the start) and the
# worktrees so that --resume finishes the search. The history has a merge: the culprit sits on
# a side branch that --all-parents lists after the other branch, so the commit before it in the
# list is not its parent; the answer names its real parent (here good). A bad --build-timeout
# exits 2. Cost: 3 counted steps of 200 requests and two short waits, about 30 s.
. "$(dirname "$0")/../lib.sh"
need git
need cc
need valgrind
need node
cd "$T"
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare
cp "$DRIVER" "$T/driver"; DRV=$T/driver
mkdir repo && cd repo
git init -q -b main . && git config user.email t@example.invalid && git config user.name test
cat > srv.c <<'C'
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
/* REVISION a */
static unsigned work(const char *b, ssize_t n)
{
    unsigned h = 0;
    /* COST */
    return h + (unsigned)b[0] + (unsigned)n;
}
int main(int argc, char **argv)
{
    struct sockaddr_in a = {0};
    int one = 1, s = socket(AF_INET, SOCK_STREAM, 0);
    static char buf[65536];
    volatile unsigned sink = 0;
    if (argc < 2 || s < 0) return 2;
    if (argv[1][0] == '-') return puts("srv") < 0;
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)atoi(argv[1]));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 16) < 0) return 3;
    for (;;) {
        int c = accept(s, NULL, NULL);
        ssize_t n;
        if (c < 0) continue;
        while ((n = read(c, buf, sizeof(buf))) > 0) {
            sink += work(buf, n);
            if (write(c, buf, (size_t)n) != n) break;
        }
        close(c);
    }
}
C
git add srv.c && git commit -q -m "good"
good=$(git rev-parse HEAD)
git checkout -q -b side
sed 's|/\* COST \*/|for (ssize_t k = 0; k < 64 * n; k++) h = h * 31 + (unsigned char)b[k % n];|' \
    srv.c > s.tmp && mv s.tmp srv.c && git commit -q -am "side 1: hash every request"
culprit=$(git rev-parse HEAD)
echo "/* side 2 */" >> srv.c && git commit -q -am "side 2"
git checkout -q main
printf '/* main 1 */\n' > notes.txt && git add notes.txt && git commit -q -m "main 1"
printf '/* main 2 */\n' >> notes.txt && git commit -q -am "main 2"
git merge -q --no-edit side
bad=$(git rev-parse HEAD)
order=$(git rev-list --reverse --topo-order "$good..$bad" | tr '\n' ' ')
case $order in
*"$(git rev-parse main~1) $culprit "*) ;;
*) fail "history: expected main 2 listed right before the culprit, got $order" ;;
esac
cd "$T"
cat > grid.json <<'JSON'
{"name": "echo", "defaults": {"protocol": "tcp", "connections": 1, "workers": 1, "payload": 64}}
JSON
cat > spec.json <<JSON
{"versions": [{"name": "good", "driver": "$DRV", "server": {"tcp": "{tree}/srv {port}"}},
              {"name": "commit", "driver": "$DRV", "server": {"tcp": "{tree}/srv {port}"}}],
 "grids": ["grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.2, "grace": 10,
 "probe_timeout": 20,
 "instructions": {"runs": 1, "requests": 200, "warmup_requests": 20, "idle_s": 0.05}}
JSON
# slow for bad while $T/slow exists: it says it started, then sleeps in a process of its own
build="if [ -f $T/slow ] && [ \"\$(git rev-parse HEAD)\" = $bad ]; then touch $T/started; sleep 31.7; fi; cc -O1 -o srv srv.c"

# 1. --build-timeout: the build fails with its cause, its sleep stopped
rc=0
"$COMPARE" commits --repo repo --baseline "$good" --candidate "$good" --build "sleep 31.9" \
    --build-timeout 1 --spec spec.json --cache "$T/cache-t" --out c1 > /dev/null 2> c1.err || rc=$?
[ $rc -eq 3 ] || { cat c1.err >&2; fail "commits past --build-timeout: exit $rc, expected 3"; }
grep -q "did not finish within 1 s (--build-timeout): its process group was stopped" c1.err ||
    fail "no timeout cause: $(cat c1.err)"
sleep 0.5
! pgrep -f "sleep 31.9" > /dev/null || fail "the timed-out build's sleep is still running"
assert_exit 2 "$COMPARE" commits --repo repo --baseline "$good" --candidate "$good" --build true \
    --build-timeout 0 --spec spec.json
assert_exit 2 "$COMPARE" bisect --repo repo --good "$good" --bad "$bad" --build true \
    --build-timeout soon --spec spec.json

# 2. SIGINT while bad builds: exit 3, the build's group stopped, bisect.json kept
touch "$T/slow"
"$COMPARE" bisect --repo repo --good "$good" --bad "$bad" --all-parents --build "$build" \
    --spec spec.json --cache "$T/cache" --metric instructions --out b > b1.out 2> b1.err &
pid=$!
i=0
while [ ! -f "$T/started" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -f "$T/started" ] || { kill "$pid"; cat b1.err >&2; fail "the slow build never started"; }
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
[ $rc -eq 3 ] || { cat b1.err >&2; fail "SIGINT during a build: exit $rc, expected 3"; }
grep -q "interrupted (SIGINT) while building commit ($(echo "$bad" | cut -c1-12))" b1.err ||
    fail "no interruption message: $(cat b1.err)"
grep -q -- "--resume --out b$" b1.err || fail "the resume hint does not name the bisect's --out: $(cat b1.err)"
sleep 0.5
! pgrep -f "sleep 31.7" > /dev/null || fail "the interrupted build's sleep is still running"
[ -f b/bisect.json ] || fail "no bisect.json after the interruption"

# 2b. SIGTERM during the first build (good's): bisect.json already holds the range, and the
# earlier bisect.json is left as it was when a --resume of it is interrupted there too
gbuild="touch $T/started-g; sleep 31.3; cc -O1 -o srv srv.c"
for pass in 1 2; do
    rm -f "$T/started-g"
    resume=""; [ $pass -eq 2 ] && resume=--resume
    "$COMPARE" bisect --repo repo --good "$good" --bad "$bad" --build "$gbuild" $resume \
        --spec spec.json --cache "$T/cache-g" --metric instructions --out bg > bg.out 2> bg.err &
    pid=$!
    i=0
    while [ ! -f "$T/started-g" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    kill -TERM "$pid"
    rc=0
    wait "$pid" || rc=$?
    [ $rc -eq 3 ] || { cat bg.err >&2; fail "SIGTERM during good's build (pass $pass): exit $rc, expected 3"; }
    grep -q "interrupted (SIGTERM) while building good" bg.err || fail "no interruption message: $(cat bg.err)"
    [ -f bg/bisect.json ] || fail "no bisect.json after an interruption of the first build (pass $pass)"
    [ "$(json_get bg/bisect.json 'this.commits')" = 3 ] ||
        fail "bisect.json does not hold the range's 3 commits (pass $pass): $(head -c 300 bg/bisect.json)"
done
sleep 0.5
! pgrep -f "sleep 31.3" > /dev/null || fail "the interrupted good build's sleep is still running"

# 3. --resume finishes; the culprit's parent is its own (good), not main 2
rm -f "$T/slow"
rc=0
"$COMPARE" bisect --repo repo --good "$good" --bad "$bad" --all-parents --build "$build" \
    --spec spec.json --cache "$T/cache" --metric instructions --out b --resume > b2.out 2> b2.err || rc=$?
[ $rc -eq 0 ] || { tail -20 b2.err >&2; fail "resume: exit $rc, expected 0"; }
assert_eq "$(head -1 b2.out | cut -d' ' -f1)" "$culprit" "the culprit"
grep -q "against its parent $(echo "$good" | cut -c1-12)" b2.out ||
    fail "the culprit's parent is not its own: $(head -1 b2.out)"
