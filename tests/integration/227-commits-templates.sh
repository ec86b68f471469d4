#!/bin/sh
# pairbench-test: untimed
# compare commits with a Redis template and setup: a git repository made here whose two commits
# build a `server` script starting the real redis-server 7.0, the first converting hashes of
# more than 64 fields to a hashtable, the second keeping them listpack-encoded up to 512. The
# grid is issue 36's HDEL shape (HDEL of named fields on a hash the setup preloads with 160
# fields, plus a string key). Every timed run of both commits records the same setup: the
# SHA-256 of the expanded RESP (checked against one computed here from the commands) and 2 keys
# after it; summary.json says both versions got the same data, and report.md names the
# template, the baseline commit and the digest and key count of both versions. Asserts no timing.
# Cost: about 10 s on 2 shared cores (4 runs of 0.3 s, two trivial builds).
. "$(dirname "$0")/../lib.sh"
need git
need redis-server
need node
need python3
cd "$T"
# private copies: a rebuild of bin/ during the test cannot pull the binaries away
cp "$DRIVER" "$T/driver"; DRV=$T/driver
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare
mkdir repo && cd repo
git init -q . && git config user.email t@example.invalid && git config user.name test
cat > make-server.sh <<'SH'
# writes ./server PORT DIR: redis-server with this commit's hash encoding limit
entries=64
printf '#!/bin/sh\nexec redis-server --port "$1" --bind 127.0.0.1 --save "" --appendonly no --dir "$2" --hash-max-listpack-entries %s\n' "$entries" > server
chmod +x server
SH
git add make-server.sh && git commit -q -m "server: hashtable past 64 fields"
sed 's/^entries=64$/entries=512/' make-server.sh > m.tmp && mv m.tmp make-server.sh
grep -q '^entries=512$' make-server.sh || fail "the candidate commit's edit did not apply"
git commit -q -am "server: listpack up to 512 fields"
cd "$T"
tmpl='HDEL test_HGET f157 f3 f42 f99 f120 f7 f18 f133 f64'
cat > grid.json <<JSON
{"name": "hdel", "defaults": {"protocol": "redis", "connections": 1, "payload": 8,
  "setup": [{"command": "HSET test_HGET f__i__ v__i__", "count": 160}, "SET s __data__"]},
 "configs": [{"command": "$tmpl"}]}
JSON
cat > spec.json <<JSON
{"versions": [{"name": "baseline", "driver": "$DRV", "server": {"redis": "{tree}/server {port} {dir}"}},
              {"name": "candidate", "driver": "$DRV", "server": {"redis": "{tree}/server {port} {dir}"}}],
 "grids": ["grid.json"], "runs": 2, "warmup": 0.1, "duration": 0.3, "grace": 10, "probe_timeout": 20}
JSON
build='sh make-server.sh && echo built'

rc=0
"$COMPARE" commits --repo repo --baseline HEAD~1 --candidate HEAD --build "$build" --spec spec.json \
    --cache "$T/cache" --out r > r.out 2> r.err || rc=$?
[ $rc -eq 0 ] || { tail -20 r.err >&2; fail "commits: exit $rc"; }
grep -q built r/build-baseline.log && grep -q built r/build-candidate.log || fail "build logs"
head1=$(git -C repo rev-parse HEAD~1); head0=$(git -C repo rev-parse HEAD)
grep -q -- "--hash-max-listpack-entries 64" "$T/cache/$head1/server" &&
    grep -q -- "--hash-max-listpack-entries 512" "$T/cache/$head0/server" ||
    fail "the trees' servers do not carry their commit's setting"

# the setup's SHA-256, computed here: the RESP of each command with __i__ and __data__ expanded
# (__data__: the payload's 8 bytes as the driver writes them, 'abcdefgh')
want=$(python3 - <<'PY'
import hashlib
def resp(args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out
cmds = [[b"HSET", b"test_HGET", b"f%d" % i, b"v%d" % i] for i in range(160)]
cmds.append([b"SET", b"s", b"abcdefgh"])
print(hashlib.sha256(b"".join(resp(c) for c in cmds)).hexdigest())
PY
)

# every timed run of both commits: the same digest, that digest, 2 keys, 161 commands
node -e '
const fs = require("fs");
const [dir, want] = process.argv.slice(1);
const runs = fs.readFileSync(dir + "/runs.jsonl", "utf8").trim().split("\n").map(JSON.parse);
const timed = runs.filter(r => r.result);
const per = {};
for (const r of timed) {
  if (r.status !== "ok") throw new Error(r.version + " run " + r.round + ": " + r.reason);
  const s = r.result.setup || {};
  (per[r.version] = per[r.version] || new Set()).add([s.sha256, s.keys, s.commands].join(" "));
}
const got = Object.keys(per).sort().map(v => v + ": " + [...per[v]].join(", ")).join("; ");
const ok = "baseline: " + want + " 2 161; candidate: " + want + " 2 161";
if (timed.length !== 4 || got !== ok)
  throw new Error(timed.length + " timed runs; " + got + " (expected " + ok + ")");
' r "$want" || fail "the runs did not record the same setup"
assert_eq "$(json_get r/summary.json 'const s = this.rows[0].setup; [s.same_data, s.baseline.sha256.join(), s.candidate.keys.join()].join(" ")')" \
    "true $want 2" "summary.json's setup"

# report.md names the template and states each commit's digest and key count
grep -qF "\`$tmpl\`" r/report.md || fail "report.md does not name the template: $(grep -n HDEL r/report.md)"
grep -q "| HEAD~1 = $head1 | $head1 |" r/report.md || fail "versions table lacks the baseline commit"
grep -q "redis · HDEL test_HGET f157 f3 .* · 1 client" r/report.md || fail "report.md's row label"
for v in baseline candidate; do
    grep -qF -- "- $v: setup SHA-256 $want, keys after it 2" r/report.md ||
        fail "report.md: no setup line for '$v': $(grep -n 'setup SHA' r/report.md)"
done
grep -q "Every run of every version got the same data." r/report.md || fail "report.md: same data"
echo ok
