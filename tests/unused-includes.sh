#!/bin/sh
# unused-includes: every project header a .c file includes is used by it.
#
# For each .c file under common/, driver/ and compare/, each quoted #include but the file's own
# header is taken out in turn, with the header's include guard defined on the command line so
# that no other include brings it back, and the file is compiled with the project's CFLAGS
# (-fsyntax-only; -Werror is among them). When that still compiles, nothing in the file needs
# the header: the include is listed as unused and the exit status is 1. An include written
# twice is listed too. An include that another of the file's headers needs is kept (blocking
# it breaks that header too), and so is one of a header with no include guard (a table
# included where it stands), so the list errs on the side of keeping: what it names can go.
#
#   make unused-includes               (make check runs it) the flags come from the Makefile
#   sh tests/unused-includes.sh        the same (it asks make for the flags)
#   sh tests/unused-includes.sh FILE.c ...   only those files
#
# Cost: one -fsyntax-only compile per file and per include (about 700), two files at a time
# (xargs -P2): 80-90 s on 2 cores.
set -eu
cd "$(dirname "$0")/.."

if [ -z "${UNUSED_CFLAGS:-}" ]; then
    # the Makefile's target sets UNUSED_CFLAGS to $(CFLAGS) and runs this script again
    exec make -s --no-print-directory unused-includes UNUSED_FILES="$*"
fi
export UNUSED_CFLAGS
CC=${CC:-cc}
export CC

# one_file FILE: prints "FILE:LINE: #include "x.h" is unused" for each unused include; exit 1
# when there is one, 2 when the file does not compile as it is.
one_file() {
    f=$1
    eval "set -- $UNUSED_CFLAGS"
    if ! "$CC" "$@" -fsyntax-only "$f" 2>/dev/null; then
        echo "$f: does not compile as it is (make shows why)" >&2
        return 2
    fi
    own=$(basename "$f" .c).h
    found=0
    # the line number and the header of each quoted include (no header name holds a blank)
    # shellcheck disable=SC2013
    for entry in $(awk '/^#include "/ { split($0, a, "\""); print NR ":" a[2] }' "$f"); do
        n=${entry%%:*}
        inc=${entry#*:}
        [ "$(basename "$inc")" != "$own" ] || continue
        hdr=
        for dir in "$(dirname "$f")" common driver compare; do
            if [ -f "$dir/$inc" ]; then
                hdr=$dir/$inc
                break
            fi
        done
        # a header with no include guard is text meant to be included where it stands (the
        # X(id, en, zh) table of i18n_strings.h): taking it out may still compile, but empty
        guard=
        [ -z "$hdr" ] ||
            guard=$(awk '/^#ifndef / { g = $2; next } g && /^#define / { if ($2 == g) print g }
                         g { exit }' "$hdr")
        [ -n "$guard" ] || continue
        if [ "$(grep -c "^#include \"$inc\"" "$f")" -gt 1 ]; then
            echo "$f:$n: #include \"$inc\" is there twice"
            found=1
            continue
        fi
        if sed "${n}d" "$f" |
            "$CC" "$@" "-D$guard" -iquote "$(dirname "$f")" -fsyntax-only -x c - \
                2>/dev/null; then
            echo "$f:$n: #include \"$inc\" is unused"
            found=1
        fi
    done
    return $found
}

if [ "${1:-}" = --one ]; then
    shift
    rc=0
    for f in "$@"; do one_file "$f" || rc=$?; done
    exit $rc
fi

if [ $# -gt 0 ]; then
    files=$*
else
    files=$(find common driver compare -name '*.c' | LC_ALL=C sort)
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
# shellcheck disable=SC2086 # one word per path, none holds a blank
printf '%s\n' $files | xargs -P2 -n4 sh "$0" --one >"$out" || rc=$?
LC_ALL=C sort -t: -k1,1 -k2,2n "$out"
if [ "$rc" -ne 0 ]; then
    n=$(wc -l <"$out")
    echo "unused-includes: $n unused include(s) listed above (or a file that does not compile)" >&2
    exit 1
fi
# shellcheck disable=SC2086
echo "unused-includes: none in $(printf '%s\n' $files | wc -l) files"
