#!/usr/bin/env python3
"""Runs a GitHub Actions workflow of ci/github/ on this machine, for the tests: every `run:`
step is executed as written (bash -eo pipefail, in the job's workspace), so the recipe's own
command lines are what runs.

    python3 tests/gha_run.py WORKFLOW ROOT CONTEXT.json

ROOT/sources/NAME holds the tree each checkout step copies in (NAME = the step's `path`; a
git checkout is copied with its .git, so its remotes are the fixture's). CONTEXT.json gives
the `${{ }}` values ({"github": {"event_name": ..., ...}, "vars": {...}}; the workflow must
be triggered by github.event_name: pull_request, schedule, workflow_dispatch, ...),
"rewrite", a list of [from, to] replacements applied to run scripts for the steps that need
a machine the test does not have (sudo, the pairbench build: the test links the binaries
under test), and optionally "workspace", a directory kept between invocations as a
self-hosted runner keeps its work directory: each job then runs in WORKSPACE/NAME, with what
earlier runs left there. Without it each job (and each matrix entry) gets a fresh workspace
ROOT/jobs/NAME/ws. The actions used by the recipes are done locally: checkout (the path is
replaced by a fresh copy, as actions/checkout does when it cannot reuse a directory), cache
save/restore (copy under the key, a miss fails when fail-on-cache-miss),
upload/download-artifact (copy by name and pattern). Steps run on success() unless their
`if:` calls a status function (always(), success(), failure(), cancelled()); an `if:`
without one is `success() && (expr)`, as on GitHub (steps.X.outputs.Y, needs.X.result, ==,
!=, &&, ||). $GITHUB_OUTPUT lines NAME=VALUE become steps.ID.outputs.NAME. Prints a JSON
report: per job its result and per step its exit code and outputs, and the job summary
($GITHUB_STEP_SUMMARY). Exit 0 when the workflow ran (whatever its jobs' results), 2 on
something this runner does not support."""
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys

import yaml

EXPR = re.compile(r'\$\{\{\s*(.*?)\s*\}\}')
IDENT = re.compile(r"'[^']*'|[A-Za-z_][\w-]*(?:\.[\w-]+)*(?:\(\))?")


def die(msg):
    print(f'gha_run: {msg}', file=sys.stderr)
    sys.exit(2)


def lookup(ctx, dotted):
    cur = ctx
    for part in dotted.split('.'):
        if not isinstance(cur, dict) or part not in cur:
            die(f'no value for ${{{{ {dotted} }}}}')
        cur = cur[part]
    return cur


def subst(text, ctx):
    return EXPR.sub(lambda m: str(lookup(ctx, m.group(1))), str(text))


def condition(expr, ctx, failed):
    """The step's or job's `if:`; success() when there is none."""
    if expr is None:
        return not failed
    expr = EXPR.sub(lambda m: m.group(1), str(expr))
    if not re.search(r'\b(always|success|failure|cancelled)\(\)', expr):
        if failed:
            return False     # an implied success() that is false: the rest is not evaluated
    words = {'always()': 'True', 'success()': str(not failed), 'failure()': str(failed),
             'cancelled()': 'False'}

    def tok(m):
        t = m.group(0)
        if t.startswith("'"):
            return repr(t[1:-1])
        if t in words:
            return words[t]
        return repr(str(lookup(ctx, t)))
    py = IDENT.sub(tok, expr).replace('&&', ' and ').replace('||', ' or ')
    py = re.sub(r'!(?!=)', ' not ', py)
    return bool(eval(py, {'__builtins__': {}}, {}))  # only literals and operators remain


def copy_into(src, dst):
    if os.path.isdir(src):
        shutil.copytree(src, dst, symlinks=True, dirs_exist_ok=True)
    else:
        os.makedirs(os.path.dirname(dst) or '.', exist_ok=True)
        shutil.copy2(src, dst)


def paths_of(w):
    return [p for p in str(w.get('path', '.')).splitlines() if p.strip()]


def do_action(uses, w, ws, root, name):
    """The actions the recipes use, done locally. Returns an exit code."""
    kind = uses.split('@')[0]
    if kind == 'actions/checkout':
        src = os.path.join(root, 'sources', w.get('path', '.'))
        if not os.path.isdir(src):
            die(f'{name}: no fixture tree {src}')
        dst = os.path.join(ws, w.get('path', '.'))
        if w.get('path', '.') != '.' and os.path.lexists(dst):
            if os.path.isdir(dst) and not os.path.islink(dst):
                shutil.rmtree(dst)
            else:
                os.remove(dst)
        copy_into(src, dst)
    elif kind == 'actions/cache/save':
        for p in paths_of(w):
            copy_into(os.path.join(ws, p), os.path.join(root, 'cache', w['key'], p))
    elif kind == 'actions/cache/restore':
        cache = os.path.join(root, 'cache', w['key'])
        if not os.path.isdir(cache):
            return 1 if w.get('fail-on-cache-miss') else 0
        for p in paths_of(w):
            copy_into(os.path.join(cache, p), os.path.join(ws, p))
    elif kind == 'actions/upload-artifact':
        present = [p for p in paths_of(w) if os.path.exists(os.path.join(ws, p))]
        if not present:
            return 1 if w.get('if-no-files-found') == 'error' else 0
        for p in present:
            src = os.path.join(ws, p)
            dst = os.path.join(root, 'artifacts', w['name'])
            copy_into(src, dst if os.path.isdir(src) and len(present) == 1 else
                      os.path.join(dst, os.path.basename(p)))
    elif kind == 'actions/download-artifact':
        arts = sorted(os.listdir(os.path.join(root, 'artifacts')))
        dest = os.path.join(ws, w.get('path', '.'))
        if 'name' in w:
            copy_into(os.path.join(root, 'artifacts', w['name']), dest)
        for a in fnmatch.filter(arts, w.get('pattern', '\0')):
            copy_into(os.path.join(root, 'artifacts', a), os.path.join(dest, a))
    else:
        die(f'{name}: action {uses} not supported')
    return 0


def run_step(step, ctx, env, ws, rewrite, summary):
    script = subst(step['run'], ctx)
    for old, new in rewrite:
        script = script.replace(old, new)
    out_file = os.path.join(os.path.dirname(summary), 'github_output')
    open(out_file, 'w').close()
    e = dict(os.environ)
    e.update(env)
    e.update({k: subst(v, ctx) for k, v in (step.get('env') or {}).items()})
    e.update(GITHUB_OUTPUT=out_file, GITHUB_STEP_SUMMARY=summary, GITHUB_WORKSPACE=ws, CI='true')
    p = subprocess.run(['bash', '--noprofile', '--norc', '-eo', 'pipefail', '-c', script],
                       cwd=ws, env=e, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    outputs = dict(line.split('=', 1) for line in open(out_file).read().splitlines() if '=' in line)
    return p.returncode, outputs, p.stdout[-3000:]


def run_job(jname, job, wf, ctx, root, matrix, rewrite, kept):
    tag = jname + ''.join(f'-{v}' for v in matrix.values())
    os.makedirs(os.path.join(root, 'jobs', tag))
    ws = os.path.join(kept, tag) if kept else os.path.join(root, 'jobs', tag, 'ws')
    os.makedirs(ws, exist_ok=bool(kept))
    summary = os.path.join(root, 'jobs', tag, 'summary.md')
    open(summary, 'w').close()
    jctx = dict(ctx, matrix=matrix, steps={})
    env = {}
    for k, v in (wf.get('env') or {}).items():
        env[k] = subst(v, jctx)
    jctx['env'] = env
    failed = False
    report = {'job': tag, 'steps': []}
    for step in job['steps']:
        name = subst(step.get('name', step.get('uses', 'run')), jctx)
        if not condition(step.get('if'), jctx, failed):
            report['steps'].append({'name': name, 'skipped': True})
            continue
        if 'uses' in step:
            w = {k: subst(v, jctx) for k, v in (step.get('with') or {}).items()}
            rc, outputs, log = do_action(step['uses'], w, ws, root, name), {}, ''
        else:
            rc, outputs, log = run_step(step, jctx, env, ws, rewrite, summary)
        if 'id' in step:
            jctx['steps'][step['id']] = {'outputs': outputs}
        report['steps'].append({'name': name, 'rc': rc, 'outputs': outputs, 'log': log})
        failed = failed or rc != 0
    report['result'] = 'failure' if failed else 'success'
    report['summary'] = open(summary).read()
    return report


def events(wf):
    """The events the workflow's `on:` names (YAML 1.1 reads the key on as true)."""
    on = wf.get('on', wf.get(True))
    if isinstance(on, str):
        return [on]
    return list(on or [])


def order(jobs):
    done, out = set(), []
    while len(out) < len(jobs):
        ready = [j for j in jobs if j not in done and
                 all(n in done for n in ([jobs[j]['needs']] if isinstance(jobs[j].get('needs'), str)
                                         else jobs[j].get('needs', [])))]
        if not ready:
            die('jobs: a cycle in needs')
        done.add(ready[0])
        out.append(ready[0])
    return out


def main():
    if len(sys.argv) != 4:
        die('usage: gha_run.py WORKFLOW ROOT CONTEXT.json')
    wf = yaml.safe_load(open(sys.argv[1]))
    root = os.path.abspath(sys.argv[2])
    given = json.load(open(sys.argv[3]))
    rewrite = given.pop('rewrite', [])
    kept = given.pop('workspace', None)
    event = given.get('github', {}).get('event_name')
    if event not in events(wf):
        die(f'{sys.argv[3]}: github.event_name {event!r}: the workflow runs on {events(wf)}')
    os.makedirs(os.path.join(root, 'artifacts'), exist_ok=True)
    ctx = dict(given, needs={})
    reports = []
    for jname in order(wf['jobs']):
        job = wf['jobs'][jname]
        needs = job.get('needs', [])
        needs = [needs] if isinstance(needs, str) else needs
        needs_failed = any(ctx['needs'][n]['result'] != 'success' for n in needs)
        if not condition(job.get('if'), ctx, needs_failed):
            ctx['needs'][jname] = {'result': 'skipped'}
            continue
        axes = (job.get('strategy') or {}).get('matrix') or {}
        if len(axes) > 1:
            die(f'{jname}: a matrix of more than one axis is not supported')
        combos = [{k: v} for k, vs in axes.items() for v in vs] or [{}]
        results = [run_job(jname, job, wf, ctx, root, m, rewrite, kept) for m in combos]
        reports += results
        ok = all(r['result'] == 'success' for r in results)
        ctx['needs'][jname] = {'result': 'success' if ok else 'failure'}
    json.dump(reports, sys.stdout, indent=1)
    print()
    return 0


if __name__ == '__main__':
    sys.exit(main())
