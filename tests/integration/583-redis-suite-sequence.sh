#!/bin/sh
# pairbench-test: untimed
# The shipped specs/redis-suite-sequence.json runs, briefly, from the repository root:
# redis-server against valkey-server through the redis-benchmark suite (grids/redis-suite.json)
# as one sequence. Every run is ok; each version's round is one server process serving the 19
# commands in the grid's order, the versions alternating between rounds; report.md's and
# report.html's "Step by step" list the 19 commands in that order. Nothing here reads a
# verdict (0.1 s windows). Cost: about 15 s (76 runs of 0.1 s).
. "$(dirname "$0")/../lib.sh"
need redis-server
need valkey-server
need node
(cd "$TOP" && "$COMPARE" run --spec specs/redis-suite-sequence.json --runs 2 --warmup 0 \
    --duration 0.1 --out "$T/out") > "$T/run.out" 2> "$T/run.err" ||
    fail "specs/redis-suite-sequence.json: exit $?: $(tail -3 "$T/run.err")"
order="ECHO PING SET GET INCR LPUSH RPUSH LPOP RPOP SADD HSET SPOP ZADD ZPOPMIN LRANGE_100 LRANGE_300 LRANGE_500 LRANGE_600 MSET"
assert_eq "$(json_get "$TOP/grids/redis-suite.json" 'this.axes.command.join(" ")')" "$order" "the grid's commands"
node -e '
const fs = require("fs"), order = process.argv[2].split(" ");
const lines = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const bad = [], pids = new Set();
if (lines.length !== 76) bad.push(lines.length + " lines, expected 76");
lines.forEach((l, i) => {
  const step = i % 19 + 1, group = Math.floor(i / 19), round = Math.floor(group / 2) + 1;
  const first = round === 1 ? "redis-7.0" : "valkey-8.0";
  const want = group % 2 === 0 ? first : (first === "redis-7.0" ? "valkey-8.0" : "redis-7.0");
  const s = l.sequence || {};
  if (l.status !== "ok") bad.push("line " + (i + 1) + ": " + l.status + " " + l.reason);
  if (s.step !== step || s.steps !== 19) bad.push("line " + (i + 1) + ": step " + s.step + "/" + s.steps);
  if (!l.label.includes(" " + order[step - 1] + " ")) bad.push("line " + (i + 1) + ": " + l.label + ", expected " + order[step - 1]);
  if (l.version !== want || l.round !== round) bad.push("line " + (i + 1) + ": " + l.version + " round " + l.round + ", expected " + want + " round " + round);
  if (step > 1 && s.server_pid !== lines[i - 1].sequence.server_pid) bad.push("line " + (i + 1) + ": another server than step " + (step - 1));
  pids.add(s.server_pid);
  // what the server held after the step: the state the next step began from
  const st = s.state || {};
  if (!(Number.isInteger(st.keys) && st.used_memory > 0 && st.rss_kib > 0 && st.sockets >= 1))
    bad.push("line " + (i + 1) + ": state " + JSON.stringify(s.state));
  if (step <= 2 && st.keys !== 0) bad.push("line " + (i + 1) + ": " + st.keys + " keys after " + order[step - 1]);
  if (order[step - 1] === "SET" && !(st.keys > 0)) bad.push("line " + (i + 1) + ": no keys after SET");
});
if (pids.size !== 4) bad.push(pids.size + " server processes, expected 4 (one per version and round)");
if (bad.length) { console.error(bad.slice(0, 10).join("\n")); process.exit(1); }
' "$T/out/runs.jsonl" "$order" || fail "the sequence's lines"
# the report's steps: the commands in order, numbered
md=$(sed -n '/^## Step by step$/,/^## /p' "$T/out/report.md" | sed -n 's/^| \([0-9]*\) | redis · \([A-Z_0-9]*\) · .*/\1 \2/p' | tr '\n' ' ')
want=$(i=0; for c in $order; do i=$((i + 1)); printf '%s %s ' "$i" "$c"; done)
assert_eq "$md" "$want" "report.md's Step by step"
html=$(sed -n '/<section id="steps">/,/<\/section>/p' "$T/out/report.html" | sed -n 's/^<tr><td class="n">\([0-9]*\)<\/td><td>redis · \([A-Z_0-9]*\) · .*/\1 \2/p' | tr '\n' ' ')
assert_eq "$html" "$want" "report.html's Step by step"
# the state after each step in summary.json, and report.md says whether the versions left the
# same keys: the first step where they did not, as summary.json has it
node -e '
const fs = require("fs"), s = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const md = fs.readFileSync(process.argv[2], "utf8");
const a = s.rows.map(r => r.state_after || {});
if (a.some(x => typeof x.same_keys !== "boolean" || !(x["redis-7.0"].keys >= 0) || !(x["valkey-8.0"].rss_kib > 0)))
  throw new Error("state_after " + JSON.stringify(a[0]));
const k = a.findIndex(x => !x.same_keys);
const want = k < 0 ? "`redis-7.0` and `valkey-8.0` left the same number of keys after every step"
                   : "`redis-7.0` and `valkey-8.0` did not leave the same data: after step " + (k + 1) + ", ";
if (!md.includes(want)) throw new Error("report.md lacks: " + want);
console.log(k < 0 ? "the same keys after every step" : "keys first differ after step " + (k + 1));
' "$T/out/summary.json" "$T/out/report.md" || fail "the state after each step"
echo "583-redis-suite-sequence: ok"
