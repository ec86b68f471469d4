#!/bin/sh
# Runs every unit test binary and every integration script, then prints one closing line
# "N passed, N failed, N skipped". A test that exits 77 is skipped and must say why on its
# output; a passing test that leaves a part out prints a line "skipped: WHY" and goes on.
# Every skip, whole or partial, is printed ("skip  NAME  WHY"), listed again before the
# closing line and written to $PAIRBENCH_SKIP_FILE (default BUILD/skips.txt: build/ or
# build/san/, one "NAME: WHY" a line); N skipped counts them all. With CI=true a skip that
# tests/skip-allow.txt does not allow fails the run.
# Usage: tests/run.sh [-j N] [unit|integration] [NAME-FILTER]
# -j N (or PAIRBENCH_TEST_JOBS=N): integration tests tagged "# pairbench-test: untimed" in
# their header run N at a time (each in its own temp dir, on free_port's claimed ports); a
# test tagged "timed", or untagged, runs alone afterwards, with nothing else running, since
# its verdict depends on wall-clock figures. Every test's output and time is still printed
# as one block, in file order within each group.
set -u
jobs=${PAIRBENCH_TEST_JOBS:-1}
case ${1:-} in
-j) jobs=${2:-1}; shift 2 ;;
-j*) jobs=${1#-j}; shift ;;
esac
case $jobs in '' | *[!0-9]* | 0) echo "tests/run.sh: -j wants a count of 1 or more, got '$jobs'" >&2; exit 2 ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${PAIRBENCH_BUILD:-build}
export BIN_DRIVER=${BIN_DRIVER:-$top/bin/driver}
export BIN_COMPARE=${BIN_COMPARE:-$top/bin/compare}
export PAIRBENCH_TOP="$top"
what=${1:-all}
filter=${2:-}
passed=0; failed=0; skipped=0; failures=""
case $build in /*) skipfile=$build/skips.txt ;; *) skipfile=$top/$build/skips.txt ;; esac
skipfile=${PAIRBENCH_SKIP_FILE:-$skipfile}
mkdir -p "$(dirname "$skipfile")" && : > "$skipfile" || { echo "tests/run.sh: cannot write the skip file '$skipfile'" >&2; exit 2; }
allow=$top/tests/skip-allow.txt
logdir=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-tests.XXXXXX")
mkdir -p "$logdir/unit" "$logdir/integration" # test names are unit/NAME, integration/NAME

run_test() { # name command...: runs it, leaving its log, exit code and seconds in $logdir
    name=$1; shift
    start=$(date +%s)
    "$@" > "$logdir/$name.log" 2>&1
    echo $? > "$logdir/$name.rc"
    echo $(( $(date +%s) - start )) > "$logdir/$name.secs"
}

# skip_allowed NAME WHY: whether tests/skip-allow.txt has a line "NAME [TEXT]" whose TEXT is
# empty or part of WHY
skip_allowed() {
    [ -f "$allow" ] || return 1
    awk -v n="$1" -v r="$2" '
        /^[ \t]*(#|$)/ { next }
        { t = $1; x = $0; sub(/^[ \t]*[^ \t]+[ \t]*/, "", x); sub(/[ \t]+$/, "", x)
          if (t == n && (x == "" || index(r, x))) f = 1 }
        END { exit !f }' "$allow"
}

skip_one() { # name why: prints, counts and records one skip (with CI=true: fails an unlisted one)
    skipped=$((skipped + 1))
    printf 'skip  %-48s %s\n' "$1" "$2"
    printf '%s: %s\n' "$1" "$2" >> "$skipfile"
    if [ "${CI:-}" = true ] && ! skip_allowed "$1" "$2"; then
        failed=$((failed + 1)); failures="$failures $1(skip)"
        printf 'FAIL  %-48s a skip tests/skip-allow.txt does not allow (CI=true)\n' "$1"
    fi
}

report_skips() { # name: the "skipped:" lines of a test's log (or its last line), each a skip
    grep '^skipped: ' "$logdir/$1.log" | sed 's/^skipped: //' > "$logdir/$1.skips"
    if [ ! -s "$logdir/$1.skips" ] && [ "$2" = whole ]; then
        tail -n 1 "$logdir/$1.log" > "$logdir/$1.skips"
    fi
    while IFS= read -r why; do skip_one "$1" "$why"; done < "$logdir/$1.skips"
}

report_one() { # name: prints and counts the result run_test left
    name=$1
    rc=$(cat "$logdir/$name.rc" 2> /dev/null || echo 1)
    secs=$(cat "$logdir/$name.secs" 2> /dev/null || echo 0)
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1)); printf 'ok    %-48s %4ss\n' "$name" "$secs"
        report_skips "$name" part
    elif [ $rc -eq 77 ]; then
        report_skips "$name" whole
    else
        failed=$((failed + 1)); failures="$failures $name"
        printf 'FAIL  %-48s %4ss (exit %s)\n' "$name" "$secs" "$rc"
        sed 's/^/      | /' "$logdir/$name.log" | tail -n 40
    fi
}

run_one() { # name command...
    case "$1" in *"$filter"*) ;; *) return 0 ;; esac
    run_test "$@"
    report_one "$1"
}

test_tag() { # script: its "# pairbench-test: TAG" header (timed when it has none)
    tag=$(sed -n '1,5s/^# pairbench-test: *\([a-z]*\).*/\1/p' "$1" | head -n 1)
    echo "${tag:-timed}"
}

# lane: one of the -j workers; takes each untimed test no other lane took yet (mkdir claims
# it atomically), so the lanes share the list as a queue.
lane() {
    for t in $untimed; do
        name="integration/$(basename "$t" .sh)"
        mkdir "$logdir/claim/$(basename "$t" .sh)" 2> /dev/null || continue
        run_test "$name" sh "$t"
    done
}

if [ "$what" = all ] || [ "$what" = unit ]; then
    # `make` builds the programs only: the unit test binaries come from `make tests`
    if ! ls "$build"/tests/test_* > /dev/null 2>&1; then
        echo "tests/run.sh: no unit test binaries in $build/tests (build them: make tests)" >&2
        failed=$((failed + 1)); failures="$failures unit"
    fi
    for t in "$build"/tests/test_*; do
        [ -x "$t" ] || continue
        run_one "unit/$(basename "$t")" "$t"
    done
fi
if [ "$what" = all ] || [ "$what" = integration ]; then
    untimed=""; timed=""
    for t in tests/integration/*.sh; do
        [ -f "$t" ] || continue
        case "integration/$(basename "$t" .sh)" in *"$filter"*) ;; *) continue ;; esac
        if [ "$jobs" -gt 1 ] && [ "$(test_tag "$t")" = untimed ]; then
            untimed="$untimed $t"
        else
            timed="$timed $t"
        fi
    done
    if [ -n "$untimed" ]; then
        mkdir -p "$logdir/claim"
        lanes=""; i=0
        while [ $i -lt "$jobs" ]; do lane & lanes="$lanes $!"; i=$((i + 1)); done
        for p in $lanes; do wait "$p"; done
        for t in $untimed; do report_one "integration/$(basename "$t" .sh)"; done
    fi
    for t in $timed; do
        run_one "integration/$(basename "$t" .sh)" sh "$t"
    done
fi
rm -rf "$logdir"
[ -n "$failures" ] && printf 'failed:%s\n' "$failures"
if [ -s "$skipfile" ]; then
    printf 'skipped (also in %s):\n' "$skipfile"
    sed 's/^/  /' "$skipfile"
fi
printf '%d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
[ "$failed" -eq 0 ]
