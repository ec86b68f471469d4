#!/bin/sh
# Runs every unit test binary and every integration script, then prints one closing line
# "N passed, N failed". A test that exits 77 is skipped and must say why on its output.
# Usage: tests/run.sh [unit|integration] [NAME-FILTER]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${PAIRBENCH_BUILD:-build}
export BIN_DRIVER=${BIN_DRIVER:-$top/bin/driver}
export BIN_COMPARE=${BIN_COMPARE:-$top/bin/compare}
export PAIRBENCH_TOP="$top"
what=${1:-all}
filter=${2:-}
passed=0; failed=0; skipped=0; failures=""
logdir=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-tests.XXXXXX")
mkdir -p "$logdir/unit" "$logdir/integration" # test names are unit/NAME, integration/NAME

run_one() { # name command...
    name=$1; shift
    case "$name" in *"$filter"*) ;; *) return 0 ;; esac
    start=$(date +%s)
    "$@" > "$logdir/$name.log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1)); printf 'ok    %-48s %4ss\n' "$name" "$secs"
    elif [ $rc -eq 77 ]; then
        skipped=$((skipped + 1)); printf 'skip  %-48s %s\n' "$name" "$(tail -n 1 "$logdir/$name.log")"
    else
        failed=$((failed + 1)); failures="$failures $name"
        printf 'FAIL  %-48s %4ss (exit %s)\n' "$name" "$secs" "$rc"
        sed 's/^/      | /' "$logdir/$name.log" | tail -n 40
    fi
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
    for t in tests/integration/*.sh; do
        [ -f "$t" ] || continue
        run_one "integration/$(basename "$t" .sh)" sh "$t"
    done
fi
rm -rf "$logdir"
[ -n "$failures" ] && printf 'failed:%s\n' "$failures"
if [ "$skipped" -gt 0 ]; then
    printf '%d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
else
    printf '%d passed, %d failed\n' "$passed" "$failed"
fi
[ "$failed" -eq 0 ]
