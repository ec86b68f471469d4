#!/bin/sh
# pairbench-test: untimed
# compare gate and compare calibrate on a template spec against real redis-server 7.0: a
# template (HGET of a hash the setup generates) and a mix (INCR + SET __key__), with setup.
# gate --instructions finds the regression that only the setup's data can show (the
# candidate keeps the 50-field hash listpack-encoded, the baseline converts it to a
# hashtable: HGET walks the listpack) and names the template's row, exit 1; every run of both
# versions records the same setup digest and 2 keys; calibrate runs the baseline against
# itself on the same grid and calibrates both rows, the mix labelled readably.
# Cost: about 45 s on 2 shared cores (counted runs under valgrind).
. "$(dirname "$0")/../lib.sh"
need redis-server
need valgrind
need node
cd "$T"
cat > grid.json <<'JSON'
{"name": "tmpl", "defaults": {"protocol": "redis", "connections": 1, "keyspace": 100,
  "key_pattern": "sequential",
  "setup": [{"command": "HSET h f__i__ v__i__", "count": 50}, "SET counter 0"]},
 "configs": [{"command": "HGET h f7"},
             {"commands": [{"command": "INCR counter", "weight": 1},
                           {"command": "SET __key__ __data__", "weight": 3}]}]}
JSON
srv="redis-server --port {port} --bind 127.0.0.1 --save '' --appendonly no --dir {dir}"
cat > spec.json <<JSON
{"versions": [
  {"name": "hashtable", "driver": "$DRIVER", "server": {"redis": "$srv --hash-max-listpack-entries 8"}},
  {"name": "listpack", "driver": "$DRIVER", "server": {"redis": "$srv"}}],
 "grids": ["grid.json"], "runs": 3, "warmup": 0.1, "duration": 0.3, "grace": 10,
 "probe_timeout": 20,
 "instructions": {"runs": 2, "requests": 200, "warmup_requests": 50, "idle_s": 0.2}}
JSON

# 1. the gate: exit 1, the HGET template's row regressed in instructions/op
rc=0
"$COMPARE" gate --spec spec.json --instructions --budget 0 --out gate > gate.out 2> gate.err || rc=$?
assert_eq "$rc" 1 "gate exit ($(tail -n 1 gate.err))"
grep -q "regression in 'redis · HGET h f7 [^']*' instructions/op" gate.err ||
    fail "gate reason does not name the template's row: $(tail -n 1 gate.err)"
grep -q 'INCR counter ×1 + SET __key__ __data__ ×3' gate/gate.md || fail "gate.md: no mix row"
node -e '
const fs = require("fs");
const runs = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const timed = runs.filter(r => r.result);
if (timed.length < 12) throw new Error(timed.length + " timed runs (expected at least 12)");
const digests = new Set(timed.map(r => r.result.setup && [r.result.setup.sha256, r.result.setup.keys].join(" ")));
const versions = new Set(timed.map(r => r.version));
if (digests.size !== 1 || [...digests][0].split(" ")[1] !== "2" || versions.size !== 2)
  throw new Error("setup digests " + JSON.stringify([...digests]) + " versions " + [...versions]);
' gate/runs.jsonl || fail "the runs did not get the same setup"

# 2. calibrate: the first version against itself, both rows calibrated (timed runs only: the
# counted channel's calibration is test 750's)
node -e 'const fs = require("fs"), s = JSON.parse(fs.readFileSync("spec.json", "utf8"));
delete s.instructions; fs.writeFileSync("spec-cal.json", JSON.stringify(s));' || fail "spec-cal.json"
"$COMPARE" calibrate --spec spec-cal.json --out cal > cal.out 2> cal.err ||
    fail "calibrate exited $?: $(tail -n 3 cal.err)"
assert_eq "$(json_get cal/calibration.json '[this.rows.length,
    this.rows.every(r => r.metrics.throughput.pairs === 3),
    this.rows.some(r => /HGET h f7/.test(r.label)),
    this.rows.some(r => /INCR counter ×1 \+ SET __key__ __data__ ×3/.test(r.label))].join(" ")')" \
    "2 true true true" "calibration rows"
echo "526-gate-calibrate-templates: ok"
