#!/bin/sh
# pairbench-test: untimed
# Counted cost of the built-in LRANGE_100 against the same command written as a template
# (LRANGE mylist 0 99, the built-in's prefill as its setup), real redis-server 7.0 under real
# valgrind: with a driver that takes --no-prefill, the counted window of the built-in holds
# the LRANGE commands alone (the warm-up prefilled the list), so the two cost the same server
# instructions per operation within 0.1%. A driver from before --no-prefill (the real driver
# behind a wrapper whose --help does not name it and which refuses the key, as such a driver
# did) still runs: compare gives it no "no_prefill", and its built-in pays the prefill of the
# window's handshake (LPUSH of 100 values and LTRIM: about 250,000 instructions, 1.1% of 300
# LRANGE_100), more than 0.5% above its template. Cost: about 20 s on 2 shared cores (4 counted
# runs of 300 requests).
. "$(dirname "$0")/../lib.sh"
need redis-server
need valgrind
need node

drv=$(dirname "$COMPARE")/driver
old_driver "$T/old-driver" "$drv" --no-prefill no_prefill
"$T/old-driver" --help | grep -q -- --lockstep || fail "the wrapper's --help lost the other flags"
if "$drv" --help | grep -q -- --no-prefill; then :; else fail "the driver's --help does not name --no-prefill"; fi

prefill=$(node -e 'process.stdout.write(JSON.stringify(["LPUSH mylist" + " __data__".repeat(100), "LTRIM mylist 0 99"]))')
cat > "$T/grid.json" <<JSON
{"name": "lrange", "defaults": {"protocol": "redis", "connections": 1},
 "configs": [{"command": "LRANGE_100"}, {"command": "LRANGE mylist 0 99", "setup": $prefill}]}
JSON
# the servers differ by a default (--hz 10) so that the servers are counted, not the drivers
srv="redis-server --port {port} --bind 127.0.0.1 --save '' --appendonly no --dir {dir}"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "new", "server": {"redis": "$srv"}},
              {"name": "old", "driver": "$T/old-driver", "server": {"redis": "$srv --hz 10"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.2,
 "instructions": {"source": "valgrind", "runs": 1, "requests": 300, "warmup_requests": 100,
                  "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/r" > /dev/null 2> "$T/r.err" || rc=$?
[ $rc -eq 0 ] || { tail -20 "$T/r.err" >&2; fail "compare run exited $rc"; }

# per version: built-in and template instructions/op, and their ratio
ratios=$(node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
for (const v of ["new", "old"]) {
  const get = re => { const x = l.find(y => y.version === v && re.test(y.label));
    if (!x || x.status !== "ok") throw new Error(v + " " + re + ": " + (x ? x.reason : "no run"));
    return x.instructions.per_op; };
  const b = get(/LRANGE_100/), t = get(/LRANGE mylist 0 99/);
  console.log(v, b.toFixed(1), t.toFixed(1), (b / t).toFixed(5));
}' "$T/r")
echo "$ratios"
set -- $ratios
# new: within 0.1%
awk -v r="$4" 'BEGIN { exit !(r >= 0.999 && r <= 1.001) }' ||
    fail "new driver: built-in $2 vs template $3 instructions/op (ratio $4), expected within 0.1%"
# old: the window's prefill counted, more than 0.5% above the template
awk -v r="$8" 'BEGIN { exit !(r > 1.005) }' ||
    fail "old driver: built-in $6 vs template $7 (ratio $8): expected the prefill counted (> 0.5%)"
echo ok
