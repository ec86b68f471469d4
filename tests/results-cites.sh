#!/bin/sh
# Docs as reference (issue 52): docs/results/ is a ledger of current figures, one file per
# topic (docs/results/README.md); history lives in git. A code comment, a doc or a script
# cites a doc by its section, never a dated results file. This check fails on a dated file
# under docs/results/ (a name that starts with a year) and on any file that cites one
# ("results/" followed by a date, as a path from the top or relative to docs/). Prints each
# offence as file:line; exit 1 when there is one. Run by `make check`.
# Usage: sh tests/results-cites.sh [DIR]   (default: the checkout this script is in)
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2
bad=0
for f in docs/results/[12][0-9][0-9][0-9]-*; do
    [ -e "$f" ] || continue
    echo "$f  <- a dated results file: fold its current figures into the ledger (docs/results/README.md)"
    bad=1
done
hits=$(grep -rnI --exclude-dir=.git --exclude-dir=node_modules --exclude-dir=.deps \
    --exclude-dir=build --exclude-dir=bin -e 'results/[12][0-9][0-9][0-9]-[0-9]' . |
    grep -v '^\./docs/results/[12][0-9][0-9][0-9]-')
if [ -n "$hits" ]; then
    printf '%s\n' "$hits" | sed 's|^\./||; s|$|  <- cites a dated results file: cite a doc section instead|'
    bad=1
fi
exit $bad
