#!/bin/sh
# Docs as reference (issue 52): docs/results/ is a ledger of current figures, one file per
# topic (docs/results/README.md); history lives in git. A code comment, a doc or a script
# cites a doc by its section, never a dated results file. This check fails on a dated file
# under docs/results/ (a name that starts with a year), on any file that cites one
# ("results/" followed by a date, as a path from the top or relative to docs/), and on a
# citation of a ledger file by a section it does not have ("results/NAME.md, "Heading"",
# "... and "Other"", or "results/NAME.md#anchor"), so that a renamed heading cannot leave
# its citations pointing nowhere. Prints each offence; exit 1 when there is one. Run by
# `make check`.
# Usage: sh tests/results-cites.sh [DIR]   (default: the checkout this script is in)
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2
bad=0
for f in docs/results/[12][0-9][0-9][0-9]-*; do
    [ -e "$f" ] || continue
    echo "$f  <- a dated results file: fold its current figures into the ledger (docs/results/README.md)"
    bad=1
done
search() {
    grep -rI --exclude-dir=.git --exclude-dir=node_modules --exclude-dir=.deps \
        --exclude-dir=build --exclude-dir=bin "$@" .
}
hits=$(search -n -e 'results/[12][0-9][0-9][0-9]-[0-9]' |
    grep -v '^\./docs/results/[12][0-9][0-9][0-9]-')
if [ -n "$hits" ]; then
    printf '%s\n' "$hits" | sed 's|^\./||; s|$|  <- cites a dated results file: cite a doc section instead|'
    bad=1
fi

# The ledger's headings, one "NAME<tab>HEADING" line each ("NAME<tab>" for the file itself).
heads=${TMPDIR:-/tmp}/results-heads.$$
trap 'rm -f "$heads"' EXIT
for r in docs/results/*.md; do
    [ -e "$r" ] || continue
    n=${r##*/}
    n=${n%.md}
    printf '%s\t\n' "$n"
    sed -n 's/^#\{1,6\} //p' "$r" | sed "s/^/$n	/"
done > "$heads"
files=$(search -l -e 'results/[a-z][a-z-]*\.md')
# Each citing file is read as one text, comment markers dropped, so that a citation broken
# across lines of a comment or a paragraph is read whole.
# shellcheck disable=SC2086
[ -z "$files" ] || awk '
function anchor(h,    a) {
    a = tolower(h); gsub(/[^a-z0-9 _-]/, "", a); gsub(/ /, "-", a); return a
}
function check(f, text,    m, name, s, q) {
    while (match(text, /results\/[a-z][a-z-]*\.md(#[a-z0-9_-]+|,? "[^"]+"(,? (and )?"[^"]+")*)/)) {
        m = substr(text, RSTART, RLENGTH); text = substr(text, RSTART + RLENGTH)
        name = m; sub(/^results\//, "", name); sub(/\.md.*/, "", name)
        if (!(name in known)) continue
        if (m ~ /\.md#/) {
            s = m; sub(/.*#/, "", s)
            if (!((name SUBSEP s) in anchors)) { print f ": " m "  <- no such section"; bad = 1 }
            continue
        }
        s = m; sub(/^[^"]*/, "", s)
        while (match(s, /"[^"]+"/)) {
            q = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
            if (!((name SUBSEP q) in heads)) {
                print f ": results/" name ".md, \"" q "\"  <- no such section"; bad = 1
            }
        }
    }
}
NR == FNR {
    n = $0; sub(/\t.*/, "", n); known[n] = 1
    if ($0 ~ /\t./) { h = $0; sub(/^[^\t]*\t/, "", h); heads[n, h] = 1; anchors[n, anchor(h)] = 1 }
    next
}
FNR == 1 { if (f != "") check(f, buf); f = FILENAME; sub(/^\.\//, "", f); buf = "" }
{ l = $0; sub(/^[ \t]*(#|\*|\/\/|\/\*)?[ \t]*/, "", l); buf = buf " " l }
END { if (f != "") check(f, buf); exit bad }
' "$heads" $files || bad=1
exit $bad
