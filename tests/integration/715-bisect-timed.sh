#!/bin/sh
# pairbench-test: timed
# compare bisect on a timed metric (throughput), on a history made here: 6 commits of a tiny C
# echo server built by --build in the build cache. Commit 3 is slow on every other start (it
# counts its starts in a file beside its binary: 1 ms of sleep per request on even ones, none
# on odd ones), commit 4 takes that out again, commit 5 sleeps 1 ms on every request (about
# 20 times the round trip on loopback). From commit 2, bisect names commit 5 by the gate's
# rules (its runs and budget), each step's verdict from the timed runs. From commit 1 the
# first step lands on commit 3, whose runs disagree with each other: that step is reported
# inconclusive (exit 4, the reason naming the step and the range still in question), not
# guessed good or bad. The machine running the test is shared, so every run has other work
# beside it: the spec's gate.disturbed_limit (read by bisect as by gate) lets such runs count,
# which is sound here only because the change is twentyfold. Cost: about 8 steps of 3+ timed runs a side, 30-60 s.
. "$(dirname "$0")/../lib.sh"
need git
need cc
cd "$T"
mkdir repo && cd repo
git init -q . && git config user.email t@example.invalid && git config user.name test
cat > srv.c <<'C'
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
/* REVISION 1 */
static int starts(const char *argv0)
{
    char path[4096];
    int n = 0;
    FILE *f;
    snprintf(path, sizeof(path), "%s.starts", argv0);
    if ((f = fopen(path, "r"))) { if (fscanf(f, "%d", &n) != 1) n = 0; fclose(f); }
    if ((f = fopen(path, "w"))) { fprintf(f, "%d\n", n + 1); fclose(f); }
    return n;
}
int main(int argc, char **argv)
{
    struct sockaddr_in a = {0};
    int one = 1, s, slow = 0;
    static char buf[65536];
    if (argc < 2) return 2;
    if (argv[1][0] == '-') return puts("srv") < 0; /* --version */
    slow = 0 * starts(argv[0]); /* SLOW */
    s = socket(AF_INET, SOCK_STREAM, 0);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)atoi(argv[1]));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 16) < 0) return 3;
    for (;;) {
        int c = accept(s, NULL, NULL);
        ssize_t n;
        if (c < 0) continue;
        while ((n = read(c, buf, sizeof(buf))) > 0) {
            if (slow) usleep(1000);
            if (write(c, buf, (size_t)n) != n) break;
        }
        close(c);
    }
}
C
git add srv.c && git commit -q -m "echo server, revision 1"
edit() { sed "$1" srv.c > s.tmp && mv s.tmp srv.c; }
for i in 2 3 4 5 6; do
    edit "s|/\* REVISION [0-9]* \*/|/* REVISION $i */|"
    subject="revision $i"
    case $i in
    3) edit 's|slow = 0 \* starts(argv\[0\]); /\* SLOW \*/|slow = starts(argv[0]) % 2 == 0; /* SLOW */|'
       subject="revision 3: slow on every other start" ;;
    4) edit 's|slow = starts(argv\[0\]) % 2 == 0; /\* SLOW \*/|slow = 0 * starts(argv[0]); /* SLOW */|' ;;
    5) edit 's|slow = 0 \* starts(argv\[0\]); /\* SLOW \*/|slow = 1 + 0 * starts(argv[0]); /* SLOW */|'
       subject="revision 5: sleep on every request" ;;
    esac
    git commit -q -am "$subject"
done
assert_eq "$(git rev-list --count HEAD)" 6 "commits in the history"
culprit=$(git log --format=%H --grep='revision 5:' -1)
flaky=$(git log --format=%H --grep='revision 3:' -1)
second=$(git log --format=%H --grep='^revision 2$' -1)
first=$(git rev-list --max-parents=0 HEAD)
cd "$T"
cat > grid.json <<'JSON'
{"name": "echo", "defaults": {"protocol": "tcp", "connections": 1, "workers": 1, "payload": 64}}
JSON
cat > spec.json <<JSON
{"versions": [{"name": "good", "server": {"tcp": "{tree}/srv {port}"}},
              {"name": "commit", "server": {"tcp": "{tree}/srv {port}"}}],
 "grids": ["grid.json"], "runs": 3, "warmup": 0.1, "duration": 0.3, "grace": 10,
 "probe_timeout": 20, "gate": {"disturbed_limit": {"other_cpu_cores": 4}, "thresholds": {"throughput": 50}, "noise_limit": 100}}
JSON
build='cc -O1 -o srv srv.c'

# 1. from commit 2: the timed metric names commit 5, every step decided by the gate's rules
rc=0
"$COMPARE" bisect --repo repo --good "$second" --bad HEAD --build "$build" --spec spec.json \
    --cache "$T/cache" --metric throughput --budget 20s --out b1 > b1.out 2> b1.err || rc=$?
[ $rc -eq 0 ] || { tail -30 b1.err >&2; fail "timed bisect: exit $rc, expected 0 (found)"; }
assert_eq "$(head -1 b1.out | cut -d' ' -f1)" "$culprit" "the culprit, on throughput"
assert_eq "$(json_get b1/bisect.json 'this.metric')" throughput
# judged at the spec's gate threshold (50%), the one its verdicts were reached at
assert_eq "$(json_get b1/bisect.json 'this.threshold_pct')" 50 "the threshold, from the spec's gate"
assert_eq "$(json_get b1/bisect.json 'this.steps.map(s => s.verdict).join(" ")')" "bad good bad" \
    "the steps: good against bad, commit 4, commit 5"
json_get b1/bisect.json 'this.culprit.change < -0.5 ? "ok" : "small"' | grep -q ok ||
    fail "culprit throughput change $(json_get b1/bisect.json 'this.culprit.change'), expected < -50%"

# 2. from commit 1: the first step is commit 3, whose runs disagree: inconclusive, exit 4
rc=0
"$COMPARE" bisect --repo repo --good "$first" --bad HEAD --build "$build" --spec spec.json \
    --cache "$T/cache" --metric throughput --budget 20s --out b2 > b2.out 2> b2.err || rc=$?
[ $rc -eq 4 ] || { tail -30 b2.err >&2; fail "flaky step: exit $rc, expected 4 (not decidable)"; }
grep -q "step $(echo "$flaky" | cut -c1-12) was inconclusive on throughput" b2.err ||
    fail "reason: $(grep 'exit 4' b2.err)"
assert_eq "$(json_get b2/bisect.json 'this.found + " " + this.culprit')" "false null"
assert_eq "$(json_get b2/bisect.json 'this.steps.filter(s => s.commit == "'"$flaky"'").map(s => s.verdict).join()')" \
    inconclusive "commit 3's step in bisect.json"
grep -q "reusing the tree built" b2.err || fail "the cache was not reused: $(cat b2.err)"
echo ok
