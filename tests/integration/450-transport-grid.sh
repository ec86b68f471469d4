#!/bin/sh
# pairbench-test: untimed
# grids/transport.json is a valid grid that compare expands to the seed's four public-endpoint
# configurations (tcp 64 B, http 4 KiB, ws 64 B and 4 KiB; window 16, 16 clients, colocated
# --serve) and every one of them runs clean through compare with this driver.
. "$(dirname "$0")/../lib.sh"
need node
cat > "$T/spec.json" <<EOF
{"versions": [{"name": "this", "driver": "$DRIVER"}], "grids": ["$TOP/grids/transport.json"],
 "runs": 1, "warmup": 0.1, "duration": 0.5}
EOF
"$COMPARE" run --spec "$T/spec.json" --out "$T/out" > "$T/compare.out" 2> "$T/compare.err" ||
    fail "compare run of grids/transport.json exited $?: $(tail -n 5 "$T/compare.err")"
assert_eq "$(json_get "$T/out/summary.json" 'this.rows.length + " " + this.rows.map(r => r.status).join(",")')" \
    "4 ok,ok,ok,ok" "transport grid rows"
node -e '
const fs = require("fs");
const runs = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const seen = runs.map(r => { const c = r.result.config, e = r.result.errors;
  if (e.connect + e.io + e.protocol + e.verify + e.timeout) throw new Error("errors in " + r.label);
  return [c.protocol, c.payload, c.window, c.connections, c.workers, c.serve, c.serve_workers].join(" "); });
const want = ["tcp 64 16 16 4 true 4", "http 4096 16 16 1 true 1", "ws 64 16 16 4 true 4",
              "ws 4096 16 16 4 true 4"];
if (JSON.stringify(seen.sort()) !== JSON.stringify(want.sort()))
  throw new Error("configurations: " + JSON.stringify(seen));
' "$T/out/runs.jsonl" || fail "transport grid configurations differ from the seed's"
echo "450-transport-grid: ok"
