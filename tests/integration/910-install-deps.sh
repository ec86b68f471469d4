#!/bin/sh
# pairbench-test: untimed
# ci/install-deps.sh and the Makefile's hiredis choice, without installing anything:
# --check finds every runtime and test package present (this test runs after
# `sh ci/install-deps.sh --test`); as a non-root user the script checks instead of failing
# and exits 0 when the packages are there, and `bin/compare demo` runs as that user (setpriv
# to nobody, when the test runs as root); munge, slurmctld and slurmd are neither enabled nor
# running as system services after `--test`; a bad argument exits 2 naming it; the script
# writes no registry host name; the Makefile links a hiredis >= 1.0 that pkg-config finds
# (-lhiredis) and the .deps copy only when pkg-config finds none. Cost: about 5 s (a 0.1 s demo).
. "$(dirname "$0")/../lib.sh"
S=$TOP/ci/install-deps.sh

sh "$S" --check 2> "$T/check.err" || { cat "$T/check.err" >&2; fail "--check: runtime packages missing"; }
grep -q 'ok: every runtime package is present' "$T/check.err" || fail "--check: no ok line"
sh "$S" --test --check 2> "$T/check.err" || { cat "$T/check.err" >&2; fail "--test --check: missing"; }
assert_exit 2 sh "$S" --bogus
sh "$S" --bogus 2>&1 | grep -q "unknown argument '--bogus'" || fail "bad argument not named"
sh "$S" --help | grep -q -- '--test' || fail "--help does not describe --test"
# No host name of a registry: apt sources reuse the configured mirror.
if grep -nE '(https?|ftp)://' "$S" "$TOP/ci/build-hiredis.sh"; then fail "a URL is written in the scripts"; fi
# The test toolchain holds what the tests call (man, the YAML parser, h2load for driver wrap,
# perf for the hardware-counter run of 660).
for p in man-db groff-base python3-yaml nghttp2-client valgrind chromium linux-perf \
    slurmctld slurmd slurm-client munge haproxy; do
    grep -q "$p" "$S" || fail "install-deps.sh --test does not install $p"
done
# Slurm's and munge's daemons are installed, not enabled as system services (945 runs its own)
if [ "${PAIRBENCH_KEEP_SLURM_SERVICES:-0}" != 1 ]; then
    for d in munge slurmctld slurmd; do
        for f in /etc/systemd/system/*.wants/"$d".service /etc/rc[2-5].d/S[0-9][0-9]"$d"; do
            [ ! -e "$f" ] || fail "the system service $d is enabled ($f): sh ci/install-deps.sh --test disables it"
        done
    done
    for f in /run/munge/munged.pid /run/slurmctld.pid /run/slurmd.pid; do
        if [ -s "$f" ] && kill -0 "$(cat "$f")" 2> /dev/null; then
            fail "a system service runs ($f): sh ci/install-deps.sh --test stops it"
        fi
    done
fi

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
    setpriv --reuid=65534 --regid=65534 --clear-groups sh "$S" > "$T/nr.out" 2> "$T/nr.err" ||
        { cat "$T/nr.err" >&2; fail "as non-root with the packages present: exit $?"; }
    grep -q 'ok: every runtime package is present' "$T/nr.err" || fail "non-root: no ok line"
    # the README's non-root path: bin/compare demo as that user (shortened), from and into a
    # directory of its own; the files it writes are that user's
    chmod 755 "$T" && mkdir -p "$T/nobody" && chown 65534:65534 "$T/nobody"
    (cd "$T/nobody" && setpriv --reuid=65534 --regid=65534 --clear-groups "$COMPARE" demo --out "$T/nobody/demo" \
        --runs 1 --warmup 0 --duration 0.1 --no-instructions) > "$T/demo.out" 2> "$T/demo.err" ||
        { tail -5 "$T/demo.err" >&2; fail "bin/compare demo as non-root failed"; }
    tail -n 1 "$T/demo.out" | grep -q "^report: $T/nobody/demo/report.md" ||
        fail "non-root demo: no report path: $(tail -n 1 "$T/demo.out")"
    assert_eq "$(stat -c %u "$T/nobody/demo/runs.jsonl")" 65534 "owner of the non-root demo's runs.jsonl"
    assert_eq "$(json_get "$T/nobody/demo/summary.json" 'this.rows.filter(r => r.status === "ok").length')" 6 \
        "non-root demo rows ok"
else
    echo "note: not root, the non-root path is this run itself"
fi

# The Makefile: a pkg-config-visible hiredis >= 1.0 is linked as -lhiredis, else .deps's .a.
# (.deps's own pkg-config directory is never taken for a system one, so its hiredis.pc is
# copied elsewhere to stand for one)
hr=$T/syspc
if [ -f "$TOP/.deps/lib/pkgconfig/hiredis.pc" ]; then
    mkdir -p "$hr" && cp "$TOP/.deps/lib/pkgconfig/hiredis.pc" "$hr/"
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE PKG_CONFIG_PATH="$hr" make -n -B -C "$TOP" BUILD="$T/b1" bin/driver > "$T/sys.n" 2>&1 ||
        { cat "$T/sys.n" >&2; fail "make -n with a system hiredis"; }
    grep -q -- ' -lhiredis' "$T/sys.n" || fail "system hiredis found by pkg-config is not linked"
    if grep -q 'libhiredis\.a' "$T/sys.n"; then fail "the .deps hiredis is linked although pkg-config found one"; fi
fi
if ! pkg-config --atleast-version=1.0.0 hiredis 2>/dev/null; then
    env -u PKG_CONFIG_PATH -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE make -n -B -C "$TOP" BUILD="$T/b2" bin/driver > "$T/deps.n" 2>&1 ||
        { cat "$T/deps.n" >&2; fail "make -n without a system hiredis"; }
    grep -q '\.deps/lib/libhiredis\.a' "$T/deps.n" || fail "without a system hiredis, .deps is not used"
fi
echo "ok: install-deps check paths and the Makefile's hiredis choice"
