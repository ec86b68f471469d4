#!/bin/sh
# Mutation testing: each mutant of tests/mutants.txt is a small plausible bug, applied alone to
# a scratch copy of the tree; the tests it names must fail on it (the mutant is "killed"). A
# mutant they pass ("survived") means those tests no longer check what they claim, and fails
# the run. A pattern found other than exactly once, a mutant that does not build, or a named
# test that fails on the unmutated tree is an error in the list (exit 2).
# Usage: sh tests/mutate.sh [FILTER]   (only the mutants whose line contains FILTER); make mutate
# The scratch copy holds the tracked files as they are in the work tree (uncommitted edits
# included) and the build objects of build/ when they are current, so only the mutated file is
# recompiled and only the named tests are linked. Unit tests run from the copy's top, each
# killed or kept within 60 s; an integration test (integration/NAME) runs through tests/run.sh
# on the copy's own bin/. Cost: about 3 s a unit mutant after the first build.
# Exit: 0 every mutant killed, 1 a survivor, 2 an error in the list or the setup.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
list=${PAIRBENCH_MUTANTS:-tests/mutants.txt} # another list, to try one out
filter=${1:-}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-mutate.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM
err() { printf 'tests/mutate.sh: %s\n' "$*" >&2; exit 2; }

# the copy: tracked files with their times (so build/'s current objects stay current)
git ls-files -z | xargs -0 cp -p --parents -t "$scratch" 2> "$scratch/.cp.err" ||
    err "copying the tree to $scratch: $(head -n 3 "$scratch/.cp.err")"
[ -d .deps ] && ln -s "$top/.deps" "$scratch/.deps"
[ -d tests/node_modules ] && ln -s "$top/tests/node_modules" "$scratch/tests/node_modules"
[ -d build ] && cp -a build "$scratch/build"
rm -rf "$scratch/build/san" "$scratch/build/fuzz"

# fields: FILE<TAB>PATTERN<TAB>REPLACEMENT<TAB>TESTS (\n, \t in PATTERN/REPLACEMENT)
grep -v '^[[:space:]]*#' "$list" | grep -v '^[[:space:]]*$' | grep -F -- "$filter" > "$scratch/.list" || true
[ -s "$scratch/.list" ] || err "no mutant in $list matches '$filter'"
bad=$(awk -F '\t' 'NF != 4 { print NR ": " $0 }' "$scratch/.list")
[ -z "$bad" ] || err "$list: a line without 4 tab-separated fields: $bad"

cd "$scratch"
# the copy's own programs and build, whatever a caller's environment points at
unset BIN_DRIVER BIN_COMPARE PAIRBENCH_TOP PAIRBENCH_BUILD PAIRBENCH_SKIP_FILE
# started by make mutate, the environment holds this tree's .deps in PKG_CONFIG_PATH: the copy
# would take it for a system hiredis and link the shared library (on no runtime path)
PKG_CONFIG_PATH=$(printf '%s' "${PKG_CONFIG_PATH:-}" | tr ':' '\n' | grep -vxF "$top/.deps/lib/pkgconfig" | paste -sd: -)
export PKG_CONFIG_PATH
build() { # target...: make quietly; its output on failure
    make -j2 "$@" > .make.log 2>&1 < /dev/null || { tail -n 20 .make.log >&2; return 1; }
}
run_tests() { # tests: 0 when all pass
    for t in $1; do
        case $t in
        integration/*)
            sh tests/run.sh integration "${t#integration/}" > .run.log 2>&1 < /dev/null || return 1 ;;
        *) timeout -s KILL 60 "build/tests/$t" > .run.log 2>&1 < /dev/null || return 1 ;;
        esac
    done
    return 0
}
targets() { # tests: what make builds for them
    need_all=0
    for t in $1; do
        case $t in
        integration/*) need_all=1 ;;
        *) printf 'build/tests/%s ' "$t" ;;
        esac
    done
    [ $need_all = 0 ] || printf 'all'
}
# apply FILE PATTERN REPLACEMENT: the one occurrence replaced, or exit 2 naming the count
apply() {
    python3 - "$@" <<'PY'
import re, sys
path, pat, rep = sys.argv[1:4]
# \n a newline, \t a tab, \\ one backslash; any other backslash is itself (C's "\r\n"
# inside a pattern is written "\r\\n")
dec = lambda s: re.sub(r"\\([nt\\])", lambda m: {"n": "\n", "t": "\t", "\\": "\\"}[m.group(1)], s)
pat, rep = dec(pat), dec(rep)
text = open(path, encoding="utf-8").read()
n = text.count(pat)
if n != 1:
    sys.stderr.write("tests/mutate.sh: %s: pattern %r found %d times, expected exactly once\n" % (path, pat, n))
    sys.exit(2)
open(path, "w", encoding="utf-8").write(text.replace(pat, rep))
PY
}

# the named tests pass on the unmutated tree
all_tests=$(cut -f 4 .list | tr ' ' '\n' | sort -u | tr '\n' ' ')
echo "mutate: building and running the unmodified tests: $all_tests"
build $(targets "$all_tests") || err "the unmodified tree does not build"
for t in $all_tests; do
    run_tests "$t" || { cat .run.log >&2; err "$t fails on the unmodified tree"; }
done

killed=0; survived=0; survivors=""; nr=0
while IFS="$(printf '\t')" read -r file pat rep tests; do
    nr=$((nr + 1))
    what="$file: '$pat' -> '$rep'"
    cp -p "$file" .orig
    apply "$file" "$pat" "$rep" || exit 2
    build $(targets "$tests") || err "mutant $nr does not build: $what"
    if run_tests "$tests"; then
        survived=$((survived + 1)); survivors="$survivors $nr"
        printf 'SURVIVED  %s (passed: %s)\n' "$what" "$tests"
    else
        killed=$((killed + 1))
        printf 'killed    %s (by %s)\n' "$what" "$tests"
    fi
    cp .orig "$file" # a new time: make rebuilds the object from the restored source
done < .list
printf 'mutate: %d killed, %d survived\n' "$killed" "$survived"
[ "$survived" -eq 0 ] || { printf 'mutate: survivors (lines of the list): %s\n' "$survivors"; exit 1; }
