#!/bin/sh
# pairbench-test: untimed
# Exact counted cost (docs/statistics.md "Exact counts"): counted runs start the server with
# the interposer (bin/libpairbench-seed.so), one seed per round for both versions, a fixed
# address layout and environment. Proves, against real servers under valgrind: redis-server
# A/A, each round's two counts (one seed) agree to 0.3% (measured 0.003-0.085% at one
# connection; what is left follows the window's time, docs/statistics.md, "Exact counts")
# while their record states the seed,
# exact = true, the fixed layout and what was served (redis reads 8192 bytes of /dev/urandom
# through fopen64 and getentropy through OpenSSL); rounds get seeds 1 and 2; nginx, master and
# worker, both started with the interposer (exact with 2 processes counted); "exact": false
# turns it off with the reason recorded.
# Cost: about 60 s on 2 shared cores (small request counts).
. "$(dirname "$0")/../lib.sh"
need redis-server
need nginx
need valgrind
need node

srv="redis-server --port {port} --bind 127.0.0.1 --save '' --appendonly no --dir {dir}"
echo '{"name": "set", "defaults": {"protocol": "redis", "command": "SET", "keyspace": 100000}}' > "$T/grid.json"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "a", "server": {"redis": "$srv"}}, {"name": "b", "server": {"redis": "$srv"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 2, "requests": 2000, "warmup_requests": 300, "idle_s": 0.3}}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/r" > /dev/null 2> "$T/r.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/r.err" >&2; fail "compare run --instructions (redis A/A) exited $rc"; }
counted() { # dir -> the counted lines, one a line: version round status per_op fixed
    node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
for (const x of l) console.log(JSON.stringify([x.version, x.round, x.status, x.reason,
  x.instructions && x.instructions.per_op, x.instructions && x.instructions.fixed]));' "$1"
}
counted "$T/r" > "$T/r.lines"
assert_eq "$(node -e '
const l = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const out = [];
for (const round of [1, 2]) {
  const p = l.filter(x => x[1] === round);
  if (p.length !== 2 || p.some(x => x[2] !== "ok")) { out.push("round " + round + " failed"); continue; }
  const d = Math.abs(p[0][4] - p[1][4]) / p[0][4] * 100;
  const f = p.map(x => x[5]);
  out.push([round, d < 0.3 ? "close" : "apart " + d.toFixed(3) + "%",
    f.every(x => x.exact === true && x.seed === round && x.layout === "fixed" && x.reason === null &&
      x.processes === 1 && x.served["/dev/urandom"].bytes === 8192 && x.served.getentropy.calls >= 1)
  ].join(" "));
}
console.log(out.join("; "));' "$T/r.lines")" "1 close true; 2 close true" "redis A/A: one seed per round, exact and close"

# nginx: the master and its worker, both with the interposer
mkdir -p "$T/ng" && head -c 4096 /dev/zero | tr '\0' x > "$T/ng/4k"
nginx_conf "$T/ng/nginx.conf.in" "$T/ng" "    server { listen 127.0.0.1:@PORT@; root $T/ng; }"
cat > "$T/ng/nginx.sh" <<SH
#!/bin/sh
sed "s/@PORT@/\$1/g" "$T/ng/nginx.conf.in" > "$T/ng/nginx-\$1.conf"
exec nginx -p "$T/ng" -c "$T/ng/nginx-\$1.conf" -e "$T/ng/error.log"
SH
chmod +x "$T/ng/nginx.sh"
echo '{"name": "ng", "defaults": {"protocol": "http", "path": "/4k"}}' > "$T/ng-grid.json"
cat > "$T/ng-spec.json" <<JSON
{"versions": [{"name": "nginx", "server": {"http": "$T/ng/nginx.sh {port}"}}],
 "grids": ["$T/ng-grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 1, "requests": 300, "warmup_requests": 100, "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/ng-spec.json" --out "$T/ng-out" > /dev/null 2> "$T/ng.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/ng.err" >&2; fail "compare run nginx exited $rc"; }
assert_eq "$(counted "$T/ng-out" | node -e '
const x = JSON.parse(require("fs").readFileSync(0, "utf8").trim());
console.log(x[2], x[5].exact, x[5].seed, x[5].processes >= 2, x[5].layout);')" \
    "ok true 1 true fixed" "nginx master and worker with the interposer"

# "exact": false: counted as before, the record says why
sed 's/"idle_s": 0.2}/"idle_s": 0.2, "exact": false}/' "$T/ng-spec.json" > "$T/ng-off.json"
rc=0
"$COMPARE" run --spec "$T/ng-off.json" --out "$T/off" > /dev/null 2> "$T/off.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/off.err" >&2; fail "compare run exact:false exited $rc"; }
assert_eq "$(counted "$T/off" | node -e '
const x = JSON.parse(require("fs").readFileSync(0, "utf8").trim());
console.log(x[2], x[5].exact, x[5].layout, /exact.*false/.test(x[5].reason));')" \
    "ok false random true" "exact: false recorded with its reason"
