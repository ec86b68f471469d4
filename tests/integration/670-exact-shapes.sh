#!/bin/sh
# pairbench-test: untimed
# Exact counts need the interposer in the process counted, checked in that process after its
# exec (docs/statistics.md "Exact counts"): a tcp echo server whose work per request follows
# 8 random bytes from getrandom, started directly (exact, a repeat of its seed agreeing),
# through `env -u LD_PRELOAD`, through a wrapper script that unsets LD_PRELOAD and execs it,
# and as a static build exec'd by a wrapper: each counted but not exact, the record naming
# the earlier image that had the interposer; the A/A rows against the direct start are never
# regressed (before: exact=true, seed pairs 4-95% apart, an A/A row regressed). A setuid
# build: valgrind will not execute it, so its counted run is left out with that reason
# ("countable": false, no failed run) and its row judged on the timed metrics.
# Cost: about 30 s on 2 shared cores (small request counts).
. "$(dirname "$0")/../lib.sh"
need valgrind
need node
need cc

cat > "$T/srv.c" <<'C'
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    struct sockaddr_in a = {0};
    int one = 1, s;
    unsigned long r = 0, spin;
    volatile unsigned long sink = 0;
    if (argc < 2 || getrandom(&r, sizeof(r), 0) != sizeof(r))
        return 2;
    spin = 1000 + r % 50000;
    s = socket(AF_INET, SOCK_STREAM, 0);
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
cc -O1 -static -o "$T/srv-static" "$T/srv.c" || fail "cc -static (libc.a) failed"
cp "$T/srv" "$T/srv-setuid" && chmod u+s "$T/srv-setuid"
printf '#!/bin/sh\nunset LD_PRELOAD\nexec %s "$1"\n' "$T/srv" > "$T/unset.sh"
printf '#!/bin/sh\nexec %s "$1"\n' "$T/srv-static" > "$T/static.sh"
chmod +x "$T/unset.sh" "$T/static.sh"

echo '{"name": "echo", "defaults": {"protocol": "tcp"}}' > "$T/grid.json"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "direct", "server": {"tcp": "$T/srv {port}"}},
 {"name": "env-u", "server": {"tcp": "env -u LD_PRELOAD $T/srv {port}"}},
 {"name": "unset", "server": {"tcp": "$T/unset.sh {port}"}},
 {"name": "static", "server": {"tcp": "$T/static.sh {port}"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 1, "requests": 200, "warmup_requests": 50, "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/o" > /dev/null 2> "$T/o.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/o.err" >&2; fail "compare run exited $rc"; }
cat > "$T/setuid.json" <<JSON
{"versions": [{"name": "setuid", "server": {"tcp": "$T/srv-setuid {port}"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 1, "requests": 200, "warmup_requests": 50, "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/setuid.json" --out "$T/s" > /dev/null 2> "$T/s.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/s.err" >&2; fail "compare run (setuid) exited $rc (a setuid server is no failed run)"; }

node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
for (const x of l) { const i = x.instructions || {}, f = i.fixed || {};
  console.log([x.version, x.status, x.countable, f.exact, f.repeat ? "repeat" : "",
    f.reason || x.reason].join("|")); }' "$T/o" > "$T/lines"
node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
for (const x of l) console.log([x.version, x.status, x.countable, x.reason].join("|"));' "$T/s" >> "$T/lines"
grep -q '^direct|ok|[|]true|repeat|$' "$T/lines" ||
    fail "direct start: expected exact with a repeat; got: $(cat "$T/lines")"
grep -q "^env-u|ok||false||process [0-9]* started the interposer in an earlier image (/usr/bin/env)" "$T/lines" ||
    fail "env -u LD_PRELOAD: expected not exact, naming env; got: $(cat "$T/lines")"
grep -q "^unset|ok||false||process [0-9]* started the interposer in an earlier image ($T/unset.sh)" "$T/lines" ||
    fail "wrapper that unsets LD_PRELOAD: expected not exact, naming it; got: $(cat "$T/lines")"
grep -q "^static|ok||false||process [0-9]* started the interposer in an earlier image ($T/static.sh)" "$T/lines" ||
    fail "static server behind a wrapper: expected not exact; got: $(cat "$T/lines")"
grep -q "^setuid|failed|false|instructions: version 'setuid' not countable: '$T/srv-setuid' is setuid, and valgrind does not execute setuid or setgid programs" "$T/lines" ||
    fail "setuid server: expected not countable, with valgrind's refusal; got: $(cat "$T/lines")"

# no A/A row is regressed or improved; the setuid row has no count, and says why
node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1] + "/summary.json", "utf8"));
const row = s.rows[0], m = row.metrics.instructions || {};
for (const v of ["env-u", "unset", "static"]) {
  const vs = m.vs_baseline[v];
  if (vs.exact.rule !== "runs" || vs.verdict === "regressed" || vs.verdict === "improved")
    { console.log(v, JSON.stringify(vs.exact), vs.verdict); process.exit(1); } }
' "$T/o" || fail "an A/A row is judged by seed pairs or given a verdict (above)"
node -e '
const s = JSON.parse(require("fs").readFileSync(process.argv[1] + "/summary.json", "utf8"));
if (!/setuid/.test(s.rows[0].not_countable || "")) process.exit(1);' "$T/s" ||
    fail "the setuid row does not say why it has no count"
grep -q "valgrind does not execute setuid or setgid programs" "$T/s.err" ||
    fail "the terminal does not say why the setuid version is not counted"
