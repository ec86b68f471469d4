#!/bin/sh
# pairbench-test: untimed
# Exact counted cost with a version whose driver predates --seed: compare asks the driver
# (`--help`) whether it takes a seed, and when it does not, gives it no "seed" key (such a
# driver refuses unknown keys) and counts that version as before, the record naming the
# reason; the other version, whose driver takes it, stays exact. The old driver here is the
# real bin/driver behind a wrapper that behaves as releases before --seed did: its --help
# does not name --seed and a configuration with "seed" is refused. (The server commands differ
# by a default, --hz 10, so the servers are counted, not the drivers.)
# Cost: about 20 s on 2 shared cores (small request counts).
. "$(dirname "$0")/../lib.sh"
need redis-server
need valgrind
need node

drv=$(dirname "$COMPARE")/driver
old_driver "$T/old-driver" "$drv" --seed seed

srv="redis-server --port {port} --bind 127.0.0.1 --save '' --appendonly no --dir {dir}"
echo '{"name": "set", "defaults": {"protocol": "redis", "command": "SET", "keyspace": 1000}}' > "$T/grid.json"
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "old", "driver": "$T/old-driver", "server": {"redis": "$srv"}},
              {"name": "new", "server": {"redis": "$srv --hz 10"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"runs": 1, "requests": 300, "warmup_requests": 100, "idle_s": 0.2}}
JSON
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/r" > /dev/null 2> "$T/r.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/r.err" >&2; fail "compare run with a driver before --seed exited $rc"; }
assert_eq "$(node -e '
const l = require("fs").readFileSync(process.argv[1] + "/runs.jsonl", "utf8").trim().split("\n")
  .map(JSON.parse).filter(x => x.kind === "instructions");
for (const v of ["old", "new"]) { const x = l.find(y => y.version === v), f = x.instructions.fixed;
  console.log(v, x.status, f.exact, f.reason === null ? "-" : /driver of version .old.*no --seed/.test(f.reason)); }' "$T/r")" \
    "old ok false true
new ok true -" "the old driver's version counted without the fixed start, the new one exact"
