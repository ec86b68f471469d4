#!/bin/sh
# The one formatter (issue 52): every relative change a report, a gate or drift writes goes
# through fmt_change (compare/util/fmt.h: two decimals, U+2212 for minus, FMT_MISSING for a
# missing value). This check fails when a file of compare/ (the writers, and the rooms whose
# reasons and messages reach them) formats a signed percent itself ("%+.1f%%" and the like). The terminal table (report/term.c) is the
# one exception: its columns are ASCII, padded by bytes, one decimal, as wrk prints. Prints
# each offence as file:line; exit 1 when there is one. Run by `make check`.
cd "$(dirname "$0")/.." || exit 2
FILES=${FILES:-$(find compare -name '*.c' | sort | grep -v '^compare/report/term\.c$')}
# shellcheck disable=SC2086
hits=$(grep -n '%+\.[0-9]f%%\|%+\.[0-9]f %%\|%+f%%' $FILES)
if [ -n "$hits" ]; then
    printf '%s\n' "$hits" | sed 's/$/  <- a signed percent outside fmt_change (compare\/util\/fmt.h)/'
    exit 1
fi
exit 0
