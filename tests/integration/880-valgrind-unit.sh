#!/bin/sh
# pairbench-test: untimed
# Every unit test binary under valgrind's memcheck: no invalid access, no use of
# uninitialised memory, no definite leak. (Skipped on the sanitized build, where ASan
# already checks the same binaries and cannot share the process with valgrind.)
. "$(dirname "$0")/../lib.sh"
build=${PAIRBENCH_BUILD:-build}
case $build in *san*) skip "sanitized build: ASan/UBSan check the unit tests there" ;; esac
need valgrind
n=0
for t in "$TOP/$build"/tests/test_*; do
    [ -x "$t" ] || continue
    n=$((n + 1))
    name=$(basename "$t")
    if ! (cd "$T" && valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
            --show-leak-kinds=definite "$t" > "$T/$name.out" 2> "$T/$name.err"); then
        tail -n 40 "$T/$name.err" >&2
        fail "$name is not clean under valgrind"
    fi
done
[ $n -gt 0 ] || fail "no unit test binaries under $build/tests (make tests)"
echo "$n unit tests clean under valgrind"
