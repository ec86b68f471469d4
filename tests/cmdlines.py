#!/usr/bin/env python3
"""Finds the pairbench command lines in text (shell scripts, YAML recipes, Markdown) and
checks each flag against the flags the real binaries accept.

    python3 tests/cmdlines.py COMPARE DRIVER FILE...

A command line is a `compare CMD ...` or `driver PROTO ...` invocation (any path ending in
/compare or /driver, or "$compare", "${PAIRBENCH_COMPARE:-bin/compare}"), with backslash
continuations joined and cut at &&, ||, ;, | and #. The accepted flags come from the
binaries: `compare CMD --help` (plus run's flags for the commands whose usage says
"[run flags]"), `driver --help`. Prints one line per command line found ("ok FILE: ...")
and one per problem ("bad FILE: ..."); exit 1 when there is a problem or no command line at
all, 2 on a harness problem."""
import re
import subprocess
import sys

FLAG = re.compile(r'(?<![\w-])--[a-z][a-z0-9-]*')
CMDS = ('run', 'report', 'gate', 'commits', 'drift', 'merge', 'calibrate', 'demo')
PROTOS = ('redis', 'tcp', 'http', 'ws', 'serve')
CMD_RE = re.compile(
    r'(?:^|[\s"\'(=])((?:\$\{?|[\w./${}:-]*/)?(?:bin/)?(compare|driver))\}?["\']?\s+'
    r'(' + '|'.join(CMDS + PROTOS) + r')(?=\s|$|")(.*)')


def help_text(argv):
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f'cmdlines: {" ".join(argv)} exited {p.returncode}')
    return p.stdout + p.stderr


def accepted(compare, driver):
    flags = {}
    for c in CMDS:
        h = help_text([compare, c, '--help'])
        flags[c] = set(FLAG.findall(h)) | {'--help'}
        if '[run flags]' in h:
            flags[c] |= set(FLAG.findall(help_text([compare, 'run', '--help'])))
    d = set(FLAG.findall(help_text([driver, '--help']))) | {'--help'}
    for p in PROTOS:
        flags[p] = d
    return flags


def logical_lines(text):
    out, cur = [], ''
    for raw in text.splitlines():
        line = raw.rstrip()
        # YAML block scalars and Markdown keep the shell text indented: strip that
        stripped = line.lstrip()
        if cur:
            cur += ' ' + stripped
        else:
            cur = stripped
        if cur.endswith('\\'):
            cur = cur[:-1]
            continue
        out.append(cur)
        cur = ''
    if cur:
        out.append(cur)
    return out


def command_lines(text):
    for line in logical_lines(text):
        m = CMD_RE.search(line)
        if not m:
            continue
        prog, kind, sub, rest = m.group(1), m.group(2), m.group(3), m.group(4)
        if kind == 'compare' and sub not in CMDS:
            continue
        if kind == 'driver' and sub not in PROTOS:
            continue
        rest = re.split(r'&&|\|\||;|\s\|\s|\s#', rest)[0]
        yield prog, kind, sub, rest.strip(), line


def main():
    if len(sys.argv) < 4:
        sys.exit('usage: cmdlines.py COMPARE DRIVER FILE...')
    flags = accepted(sys.argv[1], sys.argv[2])
    found = bad = 0
    for path in sys.argv[3:]:
        text = open(path, encoding='utf-8').read()
        for prog, kind, sub, rest, line in command_lines(text):
            found += 1
            # a quoted argument (a server command given to --baseline) holds its own flags
            args = re.sub(r'(?<=\s)(\'[^\']*\'|"[^"]*")', ' ', ' ' + rest)
            unknown = [f for f in FLAG.findall(args) if f not in flags[sub]]
            if unknown:
                bad += 1
                print(f'bad {path}: {kind} {sub}: unknown flag(s) {" ".join(unknown)}: {line}')
            else:
                print(f'ok {path}: {kind} {sub} {rest}')
    if found == 0:
        print('bad: no pairbench command line found')
    return 1 if bad or found == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
