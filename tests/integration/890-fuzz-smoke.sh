#!/bin/sh
# pairbench-test: untimed
# A short smoke of every libFuzzer target (clang, ASan + UBSan) over its committed seed
# corpus plus a few seconds of new inputs: a crash, leak or sanitizer report fails the test.
# `make fuzz FUZZ_SECONDS=N` is the long run.
. "$(dirname "$0")/../lib.sh"
need clang
# the outer make's variables (SANITIZE=...) must not leak into the fuzz build
env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -C "$TOP" fuzz-smoke FUZZ_SMOKE_SECONDS="${FUZZ_SMOKE_SECONDS:-3}" \
    > "$T/fuzz.log" 2>&1 || { tail -n 60 "$T/fuzz.log" >&2; fail "fuzz smoke failed"; }
n=$(grep -c '^fuzz .*: [0-9]*s$' "$T/fuzz.log" || true)
[ "$n" -ge 7 ] || { cat "$T/fuzz.log" >&2; fail "only $n fuzz targets ran, expected at least 7"; }
grep -q FAILED "$T/fuzz.log" && fail "a fuzz target failed"
echo "$n fuzz targets ran clean"
