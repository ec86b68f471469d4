#!/bin/sh
# pairbench-test: untimed
# compare bisect --metric instructions on a history made here: 16 commits of a tiny C echo
# server, built by --build (`cc -O1`) in each worktree of the build cache, counted under real
# valgrind. Commit 8 does not build (commit 9 fixes it); commit 12 adds a loop to the request
# path (several times the cost of a request). bisect names commit 12 in at most
# ceil(log2(16)) + 1 = 5 measured steps, reports commit 8 as skipped, writes bisect.json and
# bisect.md with the culprit and where its instructions went; --resume takes every step from
# bisect.json (no new measurement, the same answer, here in Chinese); good and bad equal on
# the metric exit 4 with the reason; a bad --metric exits 2. The server answers --version at
# once (the runner asks every server for its version and waits up to 5 s for one that serves
# instead: that wait was two thirds of this test). Cost: 14 counted runs of 200 requests and
# 14 timed runs of 0.3 s, about 40 s on 2 loaded cores (94 s before --version).
. "$(dirname "$0")/../lib.sh"
need git
need cc
need valgrind
need node
cd "$T"
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare
cp "$DRIVER" "$T/driver"; DRV=$T/driver
mkdir repo && cd repo
git init -q . && git config user.email t@example.invalid && git config user.name test
cat > srv.c <<'C'
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
/* REVISION 1 */
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
    if (argv[1][0] == '-') return puts("srv") < 0; /* --version: answer, do not serve */
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
git add srv.c && git commit -q -m "echo server, revision 1"
i=2
while [ $i -le 16 ]; do
    sed "s|/\* REVISION [0-9]* \*/|/* REVISION $i */|" srv.c > s.tmp && mv s.tmp srv.c
    subject="revision $i"
    case $i in
    8) printf 'this line does not compile\n' >> srv.c; subject="revision 8: half an edit" ;;
    9) sed '/^this line does not compile$/d' srv.c > s.tmp && mv s.tmp srv.c ;;
    12) sed 's|/\* COST \*/|for (ssize_t k = 0; k < 64 * n; k++) h = h * 31 + (unsigned char)b[k % n];|' \
            srv.c > s.tmp && mv s.tmp srv.c
        subject="revision 12: hash every request" ;;
    esac
    git commit -q -am "$subject"
    i=$((i + 1))
done
assert_eq "$(git rev-list --count HEAD)" 16 "commits in the history"
culprit=$(git log --format=%H --grep='revision 12:' -1)
broken=$(git log --format=%H --grep='revision 8:' -1)
first=$(git rev-list --max-parents=0 HEAD)
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
build='cc -O1 -o srv srv.c && echo built'

# 1. the bisect: commit 12 named, commit 8 skipped, at most 5 measured steps
rc=0
"$COMPARE" bisect --repo repo --good "$first" --bad HEAD --build "$build" --spec spec.json \
    --cache "$T/cache" --metric instructions --out b1 > b1.out 2> b1.err || rc=$?
[ $rc -eq 0 ] || { tail -20 b1.err >&2; fail "bisect: exit $rc, expected 0 (found)"; }
assert_eq "$(head -1 b1.out | cut -d' ' -f1)" "$culprit" "the answer's first word is the culprit"
grep -q "revision 12: hash every request" b1.out || fail "answer lacks the subject: $(cat b1.out)"
assert_eq "$(json_get b1/bisect.json 'this.culprit.commit')" "$culprit" "bisect.json culprit"
assert_eq "$(json_get b1/bisect.json 'this.culprit.subject')" "revision 12: hash every request"
steps=$(json_get b1/bisect.json 'this.measured_steps')
[ "$steps" -le 5 ] || fail "$steps measured steps, expected at most 5"
assert_eq "$(json_get b1/bisect.json 'this.steps.filter(s => s.build == "built").length')" "$steps"
assert_eq "$(json_get b1/bisect.json 'this.steps.filter(s => s.build == "skipped").map(s => s.commit).join(" ")')" \
    "$broken" "the skipped commit"
# the loop costs 64 rounds per byte of a 64-byte request: far past the 1% threshold
json_get b1/bisect.json 'this.culprit.change > 0.5 ? "ok" : "small"' | grep -q ok ||
    fail "culprit change $(json_get b1/bisect.json 'this.culprit.change'), expected > +50%"
assert_eq "$(json_get b1/bisect.json 'this.culprit.functions[0].name.includes("work") || this.culprit.functions[0].name.includes("main")')" true \
    "where it went: the function holding the loop first"
grep -q "First bad commit: \`$(echo "$culprit" | cut -c1-12)\`" b1/bisect.md || fail "bisect.md: $(head -5 b1/bisect.md)"
grep -q "Where it went" b1/bisect.md || fail "bisect.md lacks where it went"
grep -q "revision 8: half an edit: did not build" b1/bisect.md || fail "bisect.md lacks the skipped commit"
grep -q "compare: bisect: step 1: .*: bad; about 4 steps left" b1.err || fail "progress: $(grep step b1.err)"
grep -q "does not build, skipped" b1.err || fail "no skip line: $(cat b1.err)"

# 2. --resume: every step from bisect.json, nothing built or measured again; Chinese report
rc=0
"$COMPARE" bisect --repo repo --good "$first" --bad HEAD --build "$build" --spec spec.json \
    --cache "$T/cache" --out b1 --resume --lang zh > b2.out 2> b2.err || rc=$?
[ $rc -eq 0 ] || { tail -20 b2.err >&2; fail "resume: exit $rc"; }
assert_eq "$(head -1 b2.out | cut -d' ' -f1)" "$culprit" "resumed answer"
assert_eq "$(grep -c 'from the earlier bisect.json' b2.err)" "$((steps + 1))" "steps taken from bisect.json"
! grep -q "building\|valgrind" b2.err || fail "resume built or counted again: $(cat b2.err)"
grep -q "第一个变坏的提交" b1/bisect.md || fail "zh bisect.md: $(head -3 b1/bisect.md)"
grep -q "^# 哪个提交：tcp · 64 B .* 的 instructions" b1/bisect.md || fail "zh title lacks the row: $(head -1 b1/bisect.md)"

# 3. good and bad equal on the metric: exit 4 with the reason (the trees come from the cache)
rc=0
"$COMPARE" bisect --repo repo --good "$first" --bad "$culprit~1" --build "$build" --spec spec.json \
    --cache "$T/cache" --out b3 > /dev/null 2> b3.err || rc=$?
[ $rc -eq 4 ] || { tail -20 b3.err >&2; fail "equal ends: exit $rc, expected 4"; }
grep -q "good and bad do not differ past the threshold on instructions" b3.err || fail "reason: $(cat b3.err)"
grep -q "reusing the tree built" b3.err || fail "the cache was not reused: $(cat b3.err)"
assert_eq "$(json_get b3/bisect.json 'this.found + " " + this.culprit')" "false null"

# 4. bad usage
assert_exit 2 "$COMPARE" bisect --repo repo --good "$first" --bad HEAD --build true --spec spec.json \
    --metric nonsense 2> b4.err
grep -q -- "--metric 'nonsense'" b4.err || fail "bad metric: $(cat b4.err)"
echo ok
