#!/bin/sh
# pairbench-test: untimed
# The CI recipes in ci/ as a security reviewer reads them, and their command lines against
# the real binaries:
# - every YAML file parses (python3-yaml);
# - the PR gate runs on pull_request (never pull_request_target) with a read-only token, takes
#   its spec and thresholds from the base checkout, pins pairbench (a ref), keeps no
#   credentials in checkouts, builds once and restores the cached trees in the shards; the
#   comment workflow is started by workflow_run, holds the write permission, checks nothing
#   out, runs no pairbench or build command, and checks the PR number against the measured
#   commit; the nightly pins pairbench;
# - the Kubernetes recipe ships a Containerfile building the image the Jobs use, and its
#   merge Job waits for every shard by itself;
# - every compare/driver command line in the recipes uses only flags the binaries accept
#   (tests/cmdlines.py);
# - the Kubernetes manifests pass tests/k8s_schema.py (an offline schema of the API's fields
#   and Job rules: Debian 12 has no API server, and its kubectl 1.20 cannot validate without
#   one) and three broken copies do not; the note line says what stays unchecked;
# - the Slurm recipe's shard and merge modes run for real from a directory without
#   bin/compare, so the merge honours PAIRBENCH_COMPARE (before, its merge job ran
#   bin/compare); 945-slurm-real runs it under a real Slurm. Cost: about 3 s.
. "$(dirname "$0")/../lib.sh"
python3 -c 'import yaml' 2> /dev/null || fail "python3-yaml missing (sh ci/install-deps.sh --test)"
C=$TOP/ci

python3 - "$C" <<'PY' || fail "recipe checks failed (above)"
import glob, os, sys, yaml
ci = sys.argv[1]
bad = []
docs = {}
for f in sorted(glob.glob(ci + '/**/*.y*ml', recursive=True)):
    try:
        docs[os.path.relpath(f, ci)] = [d for d in yaml.safe_load_all(open(f)) if d is not None]
    except yaml.YAMLError as e:
        bad.append(f'{f}: does not parse: {e}')
def on(wf): return wf.get('on', wf.get(True))       # YAML 1.1 reads the key on as true
def steps(wf): return [s for j in wf['jobs'].values() for s in j.get('steps', [])]
def runs(wf): return '\n'.join(s.get('run', '') for s in steps(wf))
def perms_ok(p, allowed_write):
    return all(v in ('read', 'none') or k in allowed_write for k, v in (p or {}).items())

gate = docs['github/pr-gate.yml'][0]
if 'pull_request' not in on(gate) or 'pull_request_target' in on(gate):
    bad.append('pr-gate: must run on pull_request only')
if not perms_ok(gate.get('permissions'), ()) or gate.get('permissions') is None:
    bad.append(f'pr-gate: token not read-only: {gate.get("permissions")}')
for name, job in gate['jobs'].items():
    if 'permissions' in job and not perms_ok(job['permissions'], ()):
        bad.append(f'pr-gate: job {name} asks for write permissions')
for s in steps(gate):
    w = s.get('with', {}) or {}
    if str(s.get('uses', '')).startswith('actions/checkout'):
        if w.get('persist-credentials') is not False:
            bad.append(f'pr-gate: checkout {w.get("path")} keeps credentials')
        if w.get('repository') and not w.get('ref'):
            bad.append('pr-gate: pairbench is not pinned (no ref)')
r = runs(gate)
for line in r.splitlines():
    if '--spec' in line and '--spec base/' not in line:
        bad.append(f'pr-gate: a spec not from the base checkout: {line.strip()}')
if 'GITHUB_TOKEN' in r or 'secrets.' in open(ci + '/github/pr-gate.yml').read():
    bad.append('pr-gate: a token or secret reaches the jobs that run PR code')
if 'compare build' in r or r.count('eval "$BUILD"') != 2:
    bad.append('pr-gate: the builds should run once, in the build job')
uses = [str(s.get('uses', '')) for s in steps(gate)]
if not any(u.startswith('actions/cache/save') for u in uses) or \
        sum(u.startswith('actions/cache/restore') for u in uses) < 2:
    bad.append('pr-gate: built trees are not cached for the shards')

com = docs['github/pr-gate-comment.yml'][0]
if 'workflow_run' not in on(com):
    bad.append('pr-gate-comment: not started by workflow_run')
if (com.get('permissions') or {}).get('pull-requests') != 'write':
    bad.append('pr-gate-comment: cannot write the comment')
for s in steps(com):
    if str(s.get('uses', '')).startswith('actions/checkout'):
        bad.append('pr-gate-comment: checks code out')
rc = runs(com)
for word in ('compare ', 'make', 'eval', 'install-deps', 'bash verdict', 'sh verdict'):
    if word in rc:
        bad.append(f'pr-gate-comment: runs code ({word!r})')
if 'head.sha' not in rc or 'HEAD_SHA' not in rc:
    bad.append('pr-gate-comment: does not check the PR number against the measured commit')

night = docs['github/nightly.yml'][0]
for s in steps(night):
    w = s.get('with', {}) or {}
    if w.get('repository') and not w.get('ref'):
        bad.append('nightly: pairbench is not pinned (no ref)')

shards = [d for d in docs['k8s/indexed-job.yaml'] if d.get('kind') == 'Job'][0]
merge = docs['k8s/merge-job.yaml'][0]
img = shards['spec']['template']['spec']['containers'][0]['image']
cf = open(ci + '/k8s/Containerfile').read()
if f'-t {img}' not in cf or 'make' not in cf or 'install-deps.sh' not in cf:
    bad.append(f'k8s: the Containerfile does not build {img}')
init = merge['spec']['template']['spec'].get('initContainers') or []
if not init or 'shard-$k.exit' not in init[0]['args'][0]:
    bad.append('k8s: the merge Job does not wait for the shards')
if 'status/shard-$k.exit' not in shards['spec']['template']['spec']['containers'][0]['args'][0]:
    bad.append('k8s: the shards do not report their end')
if int(init[0]['env'][0]['value']) != shards['spec']['completions'] if init else False:
    bad.append('k8s: the merge waits for another number of shards than the Job runs')
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

python3 "$TOP/tests/cmdlines.py" "$COMPARE" "$DRIVER" "$C"/github/*.yml "$C"/k8s/*.yaml \
    "$C"/slurm/shards.sh > "$T/cmd.out" 2>&1 || { grep -v '^ok ' "$T/cmd.out" >&2; fail "a recipe command line uses an unknown flag"; }
[ "$(grep -c '^ok .*compare ' "$T/cmd.out")" -ge 10 ] || fail "too few recipe command lines found: $(cat "$T/cmd.out")"

# Kubernetes: the manifests against the offline schema of tests/k8s_schema.py (closed field
# sets with types, required fields, enums, the Job rules, references between the files);
# three broken copies show that it finds what it checks
python3 "$TOP/tests/k8s_schema.py" "$C"/k8s/*.yaml > "$T/k8s.out" 2>&1 || fail "k8s manifests: $(cat "$T/k8s.out")"
mkdir -p "$T/k8s"
sed 's/^  completions: 4 /  completion: 4 /' "$C/k8s/indexed-job.yaml" > "$T/k8s/typo.yaml"
sed 's/^\( *\)value: "4".*/\1value: 4/' "$C/k8s/indexed-job.yaml" > "$T/k8s/envint.yaml"
sed 's/restartPolicy: Never/restartPolicy: Always/' "$C/k8s/indexed-job.yaml" > "$T/k8s/restart.yaml"
for m in "typo:unknown field of JobSpec" "envint:value: expected a string, got 4" \
    "restart:a Job pod needs restartPolicy Never or OnFailure"; do
    assert_exit 1 python3 "$TOP/tests/k8s_schema.py" "$T/k8s/${m%%:*}.yaml" "$C/k8s/merge-job.yaml" > "$T/k8s.out"
    grep -qF "${m#*:}" "$T/k8s.out" || fail "k8s schema missed the ${m%%:*} change: $(cat "$T/k8s.out")"
done
echo "note: not checked for Kubernetes: what only an API server checks (kubectl --dry-run=server, admission, defaults, the storage class); Debian 12 has no API server, and its kubectl 1.20.2 validates only against a server's schema and predates backoffLimitPerIndex (1.28)"

# Slurm: shard mode and merge mode, run where there is no bin/compare
mkdir -p "$T/elsewhere" && cd "$T/elsewhere"
cat > spec.json <<JSON
{"versions": [
  {"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
  {"name": "b", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["grid.json"], "runs": 2, "warmup": 0.05, "duration": 0.15}
JSON
echo '{"defaults": {"protocol": "tcp"}}' > grid.json
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=1 PAIRBENCH_SPEC="$T/elsewhere/spec.json" \
    PAIRBENCH_RESULTS="$T/res" PAIRBENCH_COMPARE="$COMPARE" sh "$C/slurm/shards.sh" > s.out 2> s.err ||
    fail "slurm shard mode: $(tail -3 s.err)"
[ ! -e bin/compare ] || fail "fixture: bin/compare exists here"
set +e
PAIRBENCH_COMPARE="$COMPARE" sh "$C/slurm/shards.sh" --merge "$T/res" > m.out 2> m.err
rc=$?
set -e
case $rc in 0 | 1 | 4) ;; *) fail "slurm merge mode exited $rc: $(tail -3 m.err)" ;; esac
[ -s "$T/res/merged/report.md" ] || fail "slurm merge wrote no merged report"
grep -q '^<!-- pairbench-gate -->$' m.out || fail "slurm merge did not gate"
echo "ok: recipes parse, hold their trust boundaries, use real flags; slurm merge honours PAIRBENCH_COMPARE"
