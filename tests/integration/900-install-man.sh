#!/bin/sh
# pairbench-test: untimed
# make install / uninstall and the man pages: `make install DESTDIR=... PREFIX=/usr` installs
# exactly bin/compare, bin/driver, compare(1), driver(1) and the counted runs' interposer
# (lib/pairbench/libpairbench-seed.so); the installed binaries print
# "pairbench VERSION (COMMIT)"; `man -l` renders both pages without a warning; every command
# and every flag the binaries accept (their --help and the flag strings and option table of
# the source) appears in the man page, so a new flag without documentation fails here;
# `make uninstall` removes all five files. Cost: about 2 s.
. "$(dirname "$0")/../lib.sh"
need man
need make
version=$(cat "$TOP/VERSION")
echo "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+$' || fail "VERSION '$version' is not semantic"
[ -f "$TOP/LICENSE" ] && grep -q 'pairbench authors' "$TOP/LICENSE" || fail "LICENSE names no authors"
grep -q "^## \[$version\]" "$TOP/CHANGELOG.md" || fail "CHANGELOG.md has no section for $version"

root=$T/root
make -s -C "$TOP" install DESTDIR="$root" PREFIX=/usr > "$T/install.log" 2>&1 ||
    { cat "$T/install.log" >&2; fail "make install failed"; }
(cd "$root" && find . \( -type f -o -type l \) | sort) > "$T/files"
printf '%s\n' ./usr/bin/compare ./usr/bin/driver ./usr/lib/pairbench/libpairbench-seed.so \
    ./usr/share/man/man1/compare.1 ./usr/share/man/man1/driver.1 > "$T/want"
diff "$T/want" "$T/files" >&2 || fail "make install: unexpected set of files (diff above)"
for b in compare driver; do
    [ -x "$root/usr/bin/$b" ] || fail "$b: not executable"
    "$root/usr/bin/$b" --version | grep -Eq "^pairbench $version \([0-9a-f]{4,}(-dirty)?\)$" ||
        fail "$b --version: got '$("$root/usr/bin/$b" --version)', expected 'pairbench $version (COMMIT)'"
done

# man -l renders each page, with no groff/man warning
for p in compare driver; do
    page=$root/usr/share/man/man1/$p.1
    MANWIDTH=80 man --warnings -l "$page" > "$T/$p.txt" 2> "$T/$p.err" || fail "man -l $p.1 failed"
    [ -s "$T/$p.err" ] && { cat "$T/$p.err" >&2; fail "man -l $p.1: warnings"; }
    grep -q "pairbench $version" "$T/$p.txt" || fail "$p.1: footer does not name pairbench $version"
    for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES; do
        grep -q "^$s" "$T/$p.txt" || fail "$p.1: no $s section"
    done
done

# Every flag the code accepts is documented. The man source with "\-" as "-".
flags_of() { grep -oE -- '--[a-z][a-z0-9-]*' | sort -u; }
# git's own flags, passed by commits.c to git, and "--flag" in a comment: not compare's.
not_ours='^--(show-toplevel|porcelain|detach|force|quiet|verify|flag|name)$'
{
    "$COMPARE" --help
    for c in $("$COMPARE" --help | awk '/^  [a-z]+ / {print $1}'); do "$COMPARE" "$c" --help; done
    grep -ohE '"--[a-z][a-z0-9-]*' "$TOP"/compare/cmd/*.c "$TOP"/compare/main.c
} 2>&1 | flags_of | grep -Ev "$not_ours" > "$T/compare.flags"
{
    "$DRIVER" --help
    grep -ohE '"--[a-z][a-z0-9-]*' "$TOP"/driver/*.c
    # the option table: every key is a flag with '-' for '_'
    sed -n '/^static const struct key keys\[\]/,/^};/p' "$TOP/driver/opts.c" |
        grep -oE '^ +\{"[a-z_]+"' | sed 's/^ *{"/--/; s/"$//' | tr _ -
} 2>&1 | flags_of | grep -Ev '^--(name|protocol)$' > "$T/driver.flags"
[ "$(wc -l < "$T/compare.flags")" -ge 25 ] || fail "found only $(wc -l < "$T/compare.flags") compare flags"
[ "$(wc -l < "$T/driver.flags")" -ge 30 ] || fail "found only $(wc -l < "$T/driver.flags") driver flags"
for p in compare driver; do
    sed 's/\\-/-/g' "$TOP/man/$p.1" > "$T/$p.src"
    missing=""
    while read -r f; do
        grep -qE -- "$f([^a-z0-9-]|\$)" "$T/$p.src" || missing="$missing $f"
    done < "$T/$p.flags"
    [ -z "$missing" ] || fail "$p.1 does not document:$missing"
done
# every command of compare has an entry under COMMANDS
for c in $("$COMPARE" --help | awk '/^  [a-z]+ / {print $1}'); do
    grep -q "^\.B $c\$" "$T/compare.src" || fail "compare.1: command '$c' has no entry"
done
# the metric names are the outputs' (p99_us, rss_mib), the old ones named as aliases
for m in throughput cpu_efficiency p50_us p99_us rss_mib; do
    grep -q "$m" "$T/compare.src" || fail "compare.1: metric $m not named"
done

make -s -C "$TOP" uninstall DESTDIR="$root" PREFIX=/usr > "$T/uninstall.log" 2>&1 ||
    { cat "$T/uninstall.log" >&2; fail "make uninstall failed"; }
left=$(cd "$root" && find . -type f | wc -l)
assert_eq "$left" 0 "files left after make uninstall"
echo "ok: install, uninstall, man pages ($(wc -l < "$T/compare.flags") compare flags, $(wc -l < "$T/driver.flags") driver flags)"
