#!/bin/sh
# One voice (issue 39): a report's sentences come from the string table
# (compare/report/i18n_strings.h) through report/sentences.c or i18n(), never as inline
# literals. This check fails when a file of FILES writes an inline translation: an
# L(c, "English", "中文") pair, or Chinese text outside a comment. Prints each offence as
# file:line; exit 1 when there is one. Run by `make check`.
cd "$(dirname "$0")/.." || exit 2
FILES=${FILES:-$(ls compare/report/report_html*.c compare/report/calibrate_html.c \
    compare/report/gate_report.c 2>/dev/null)}
rc=0
for f in $FILES; do
    perl -CSD -0777 -ne '
        my $src = $_;
        # blank out comments, keeping line breaks so line numbers hold
        $src =~ s{/\*.*?\*/}{ (my $c = $&) =~ s/[^\n]//g; $c }gse;
        $src =~ s{//[^\n]*}{}g;
        while ($src =~ /\bL\(\s*c\s*,\s*"/g) {
            my $line = 1 + (substr($src, 0, pos($src)) =~ tr/\n//);
            print "$ARGV:$line: inline L(c, \"...\", \"...\") sentence: use the string table\n";
            $bad = 1;
        }
        while ($src =~ /[\x{3000}-\x{303f}\x{4e00}-\x{9fff}\x{ff00}-\x{ffef}]+/g) {
            my $line = 1 + (substr($src, 0, pos($src)) =~ tr/\n//);
            print "$ARGV:$line: inline Chinese text: use the string table\n";
            $bad = 1;
        }
        END { exit($bad ? 1 : 0) }' "$f" || rc=1
done
exit $rc
