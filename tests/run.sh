#!/bin/sh
# Runs every unit test binary and every integration script, then prints one closing line
# "N passed, N failed". A test that exits 77 is skipped and must say why on its output.
# Usage: tests/run.sh [unit|integration] [NAME-FILTER]
#
# Two lanes. Unit tests and the integration scripts whose header says
# "# pairbench-test: parallel" (their assertions are counts, bytes, exit codes, rendered
# files or counted instructions: nothing a busy CPU can move) run TEST_JOBS at a time
# (default 2); every other script runs alone afterwards, because its verdict rests on
# wall-clock figures (throughput, latency, a gate or drift step, an interference check) that a
# test running beside it would disturb. A test with no tag is timed: the safe default.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${PAIRBENCH_BUILD:-build}
export BIN_DRIVER=${BIN_DRIVER:-$top/bin/driver}
export BIN_COMPARE=${BIN_COMPARE:-$top/bin/compare}
export PAIRBENCH_TOP="$top"

# run_one NAME command...: one test, its output in $RUN_LOGDIR/NAME.log, its exit status and
# seconds in NAME.rc; prints its line as it ends (one write, so lanes do not interleave).
run_one() {
    name=$1; shift
    start=$(date +%s)
    "$@" > "$RUN_LOGDIR/$name.log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    printf '%s %s\n' "$rc" "$secs" > "$RUN_LOGDIR/$name.rc"
    if [ $rc -eq 0 ]; then
        printf 'ok    %-48s %4ss\n' "$name" "$secs"
    elif [ $rc -eq 77 ]; then
        printf 'skip  %-48s %s\n' "$name" "$(tail -n 1 "$RUN_LOGDIR/$name.log")"
    else
        printf 'FAIL  %-48s %4ss (exit %s)\n' "$name" "$secs" "$rc"
    fi
}

# A lane's worker: `tests/run.sh --one PATH` runs one unit binary or integration script.
if [ "${1:-}" = --one ]; then
    case "$2" in
    *.sh) run_one "integration/$(basename "$2" .sh)" sh "$2" ;;
    *) run_one "unit/$(basename "$2")" "$2" ;;
    esac
    exit 0
fi

what=${1:-all}
filter=${2:-}
jobs=${TEST_JOBS:-2}
case "$jobs" in '' | *[!0-9]* | 0)
    echo "tests/run.sh: TEST_JOBS=$jobs: expected a whole number of parallel tests, 1 or more" >&2
    exit 2 ;;
esac
RUN_LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-tests.XXXXXX")
export RUN_LOGDIR
mkdir -p "$RUN_LOGDIR/unit" "$RUN_LOGDIR/integration" # test names are unit/NAME, integration/NAME
: > "$RUN_LOGDIR/parallel.list"
: > "$RUN_LOGDIR/alone.list"
missing_unit=0

wanted() { case "$1" in *"$filter"*) return 0 ;; esac; return 1; }

if [ "$what" = all ] || [ "$what" = unit ]; then
    # `make` builds the programs only: the unit test binaries come from `make tests`
    if ! ls "$build"/tests/test_* > /dev/null 2>&1; then
        echo "tests/run.sh: no unit test binaries in $build/tests (build them: make tests)" >&2
        missing_unit=1
    fi
    for t in "$build"/tests/test_*; do
        [ -x "$t" ] && wanted "unit/$(basename "$t")" && echo "$t" >> "$RUN_LOGDIR/parallel.list"
    done
fi
if [ "$what" = all ] || [ "$what" = integration ]; then
    for t in tests/integration/*.sh; do
        [ -f "$t" ] && wanted "integration/$(basename "$t" .sh)" || continue
        if grep -q '^# pairbench-test: parallel$' "$t"; then
            echo "$t" >> "$RUN_LOGDIR/parallel.list"
        else
            echo "$t" >> "$RUN_LOGDIR/alone.list"
        fi
    done
fi

xargs -r -P "$jobs" -n 1 sh "$top/tests/run.sh" --one < "$RUN_LOGDIR/parallel.list"
xargs -r -P 1 -n 1 sh "$top/tests/run.sh" --one < "$RUN_LOGDIR/alone.list"

passed=0; failed=$missing_unit; skipped=0; failures=""
[ "$missing_unit" -eq 0 ] || failures=" unit"
for t in $(cat "$RUN_LOGDIR/parallel.list" "$RUN_LOGDIR/alone.list"); do
    case "$t" in
    *.sh) name="integration/$(basename "$t" .sh)" ;;
    *) name="unit/$(basename "$t")" ;;
    esac
    rc=3
    [ -f "$RUN_LOGDIR/$name.rc" ] && read -r rc _ < "$RUN_LOGDIR/$name.rc"
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1))
    elif [ "$rc" -eq 77 ]; then
        skipped=$((skipped + 1))
    else
        failed=$((failed + 1)); failures="$failures $name"
        printf '%s (exit %s), the end of its output:\n' "$name" "$rc"
        sed 's/^/      | /' "$RUN_LOGDIR/$name.log" 2>/dev/null | tail -n 40
    fi
done
rm -rf "$RUN_LOGDIR"
[ -n "$failures" ] && printf 'failed:%s\n' "$failures"
if [ "$skipped" -gt 0 ]; then
    printf '%d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
else
    printf '%d passed, %d failed\n' "$passed" "$failed"
fi
[ "$failed" -eq 0 ]
