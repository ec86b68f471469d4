#!/bin/sh
# pairbench-test: untimed
# The CI recipes run, not only read (test 940 checks their trust boundaries and flags): the
# pull-request gate workflow (ci/github/pr-gate.yml) goes through its three jobs on this
# machine with tests/gha_run.py, every `run:` step executed as written: the build job builds
# a fixture baseline and candidate with the workflow's $BUILD and caches the trees, each of
# the 4 matrix shards restores them and runs its `compare run --shard K/4`, the judge merges
# the shard artifacts, gates with the base's spec (gate.md names the base's thresholds, not
# the weaker ones of the head's copy of the spec), fills the job summary and hands gate.md
# and the PR number to the comment workflow, and its last step fails exactly when the gate
# did. Two lines stand in for what this machine does not have: `sudo sh install-deps.sh`
# runs as `--check`, and `make -C pairbench` is skipped (pairbench/bin holds the binaries
# under test). The Kubernetes recipe's shard pods (indexes 0..3, one again to take the
# --resume branch) and its merge Job (the wait for the shards, merge, gate) run their
# container scripts with /opt/pairbench, /spec and /results mapped to directories here.
# The comment workflow calls GitHub's API (gh) and is not run. Cost: about 15 s (two 4-row
# TCP comparisons of 2 x 0.1 s rounds, sharded 4 ways).
. "$(dirname "$0")/../lib.sh"
python3 -c 'import yaml' 2> /dev/null || fail "python3-yaml missing (sh ci/install-deps.sh --test)"
C=$TOP/ci

# --- GitHub: pr-gate.yml -------------------------------------------------------------------
G=$T/gh
mkdir -p "$G/sources/pairbench/bin"
ln -s "$COMPARE" "$G/sources/pairbench/bin/compare"
ln -s "$DRIVER" "$G/sources/pairbench/bin/driver"
ln -s "$C" "$G/sources/pairbench/ci"
[ -e "$TOP/.deps" ] && ln -s "$TOP/.deps" "$G/sources/pairbench/.deps"
for v in base head; do
    d=$G/sources/$v
    mkdir -p "$d/.pairbench"
    printf '#!/bin/sh\nexec %s serve tcp "$@"\n' "$DRIVER" > "$d/server.in"
    printf 'server: server.in\n\tcp server.in server && chmod +x server\n' > "$d/Makefile"
done
# the spec the gate must take: the base's (the head's copy would pass anything)
cat > "$G/sources/base/.pairbench/gate.json" <<'JSON'
{"versions": [{"name": "base", "server": {"tcp": "base/server --port {port}"}},
              {"name": "head", "server": {"tcp": "head/server --port {port}"}}],
 "grids": ["base/.pairbench/grid.json"], "runs": 2, "warmup": 0, "duration": 0.1,
 "gate": {"thresholds": {"throughput": 5, "p99_us": 10}}}
JSON
echo '{"defaults": {"protocol": "tcp"}, "axes": {"payload": [64, 128, 256, 512]}}' \
    > "$G/sources/base/.pairbench/grid.json"
sed 's/"throughput": 5, "p99_us": 10/"throughput": 99, "p99_us": 98/' \
    "$G/sources/base/.pairbench/gate.json" > "$G/sources/head/.pairbench/gate.json"
gha_context "$T/ctx.json" '{"event_name": "pull_request",
  "event": {"pull_request": {"number": 42, "base": {"sha": "b4se"}, "head": {"sha": "he4d"}}}}'
python3 "$TOP/tests/gha_run.py" "$C/github/pr-gate.yml" "$G" "$T/ctx.json" > "$T/gh.json" ||
    fail "gha_run could not run pr-gate.yml"
node -e '
const jobs = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")), bad = [];
const names = jobs.map(j => j.job).join(",");
if (names !== "build,measure-1,measure-2,measure-3,measure-4,judge") bad.push("jobs run: " + names);
for (const j of jobs.filter(j => j.job !== "judge"))
  for (const s of j.steps) if (s.skipped || s.rc !== 0) bad.push(`${j.job}: ${s.name}: ${s.rc} ${s.log}`);
const judge = jobs.find(j => j.job === "judge") || {steps: []};
const step = n => judge.steps.find(s => s.name.startsWith(n)) || {};
const rc = (step("Gate").outputs || {}).rc, last = step("Fail when");
if (!["0", "1", "4"].includes(rc)) bad.push(`gate rc ${rc}: ${step("Gate").log}`);
for (const n of ["Restore", "Fetch", "Merge", "Gate", "Hand", "Keep the verdict", "Keep the merged"])
  if (step(n).rc !== 0) bad.push(`judge: ${n}: ${step(n).rc} ${step(n).log}`);
if (rc === "0" ? !last.skipped : String(last.rc) !== rc) bad.push(`last step ${JSON.stringify(last)} for gate ${rc}`);
if (judge.result !== (rc === "0" ? "success" : "failure")) bad.push("judge result " + judge.result);
if (!judge.summary.startsWith("<!-- pairbench-gate -->\n")) bad.push("no gate Markdown in the job summary");
if (bad.length) { console.log(bad.join("\n")); process.exit(1); }' "$T/gh.json" ||
    fail "pr-gate.yml run (above)"
A=$G/artifacts
for k in 1 2 3 4; do [ -s "$A/shard-$k/runs.jsonl" ] || fail "artifact shard-$k has no runs.jsonl"; done
head -n 1 "$A/pairbench-verdict/gate.md" | grep -qx '<!-- pairbench-gate -->' || fail "verdict: gate.md"
grep -q '^Gated metrics and thresholds: throughput 5%, P99 10%\.' "$A/pairbench-verdict/gate.md" ||
    fail "the gate did not judge with the base's thresholds: $(grep '^Gated' "$A/pairbench-verdict/gate.md")"
assert_eq "$(cat "$A/pairbench-verdict/pr-number")" 42 "verdict: pr-number"
assert_eq "$(json_get "$A/pairbench-gate/summary.json" 'this.rows.length')" 4 "merged rows"
# the build ran once, in the build job: the shards restored its trees
[ -x "$G/jobs/measure-3/ws/head/server" ] || fail "shard 3 has no built candidate"
[ -x "$G/cache/pairbench-trees-b4se-he4d-v0.9.0/base/server" ] || fail "no cached trees"

# --- Kubernetes: indexed-job.yaml, merge-job.yaml ------------------------------------------
K=$T/k8s
mkdir -p "$K/opt/pairbench/bin" "$K/spec" "$K/results"
ln -s "$COMPARE" "$K/opt/pairbench/bin/compare"
ln -s "$DRIVER" "$K/opt/pairbench/bin/driver"
ln -s "$TOP/grids" "$K/opt/pairbench/grids"
python3 - "$C/k8s" "$K" <<'PY' || fail "k8s recipes: extracting the pod scripts"
import json, re, sys, yaml
src, k = sys.argv[1], sys.argv[2]
def mapped(s):
    return re.sub(r'(^|[\s"=])(/opt/pairbench|/spec|/results)(?=[/\s"]|$)', r'\1' + k + r'\2', s,
                  flags=re.M)
docs = list(yaml.safe_load_all(open(src + '/indexed-job.yaml')))
spec = json.loads(mapped(next(d for d in docs if d['kind'] == 'ConfigMap')['data']['spec.json']))
spec.update(runs=2, warmup=0, duration=0.1)   # the recipe's 5 x 5 s rounds, shortened
json.dump(spec, open(k + '/spec/spec.json', 'w'))
job = next(d for d in docs if d['kind'] == 'Job')['spec']
c = job['template']['spec']['containers'][0]
open(k + '/shard.sh', 'w').write(mapped(c['args'][0]))
env = {e['name']: e['value'] for e in c['env']}
open(k + '/env', 'w').write(f"SHARDS={env['SHARDS']}\nN={job['completions']}\n")
m = yaml.safe_load(open(src + '/merge-job.yaml'))['spec']['template']['spec']
open(k + '/wait.sh', 'w').write(mapped(m['initContainers'][0]['args'][0]))
open(k + '/merge.sh', 'w').write(mapped(m['containers'][0]['args'][0]))
PY
. "$K/env"
i=0
while [ "$i" -lt "$N" ]; do
    JOB_COMPLETION_INDEX=$i SHARDS=$SHARDS sh "$K/shard.sh" > "$K/shard$i.out" 2> "$K/shard$i.err" ||
        fail "k8s shard pod $i: $(tail -3 "$K/shard$i.err")"
    i=$((i + 1))
done
# a retried pod finds its runs.jsonl and resumes (nothing left to run)
JOB_COMPLETION_INDEX=0 SHARDS=$SHARDS sh -x "$K/shard.sh" > "$K/again.out" 2> "$K/again.err" ||
    fail "k8s shard pod 0 retried: $(tail -3 "$K/again.err")"
grep -q -- '--resume' "$K/again.err" || fail "the retried pod did not resume"
SHARDS=$SHARDS timeout 30 sh "$K/wait.sh" > "$K/wait.out" 2>&1 || fail "merge Job's wait: $(cat "$K/wait.out")"
grep -q "all $N shards finished" "$K/wait.out" || fail "merge Job's wait: $(cat "$K/wait.out")"
set +e
sh "$K/merge.sh" > "$K/merge.out" 2> "$K/merge.err"
rc=$?
set -e
case $rc in 0 | 1 | 4) ;; *) fail "k8s merge container exited $rc: $(tail -3 "$K/merge.err")" ;; esac
assert_eq "$(json_get "$K/results/merged/summary.json" 'this.rows.length')" 4 "k8s merged rows"
grep -qx '<!-- pairbench-gate -->' "$K/merge.out" || fail "k8s merge: no gate Markdown: $(head -3 "$K/merge.out")"
echo "ok: pr-gate.yml's jobs and the Kubernetes pods ran their command lines (gate exit $rc)"
