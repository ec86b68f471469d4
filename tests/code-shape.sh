#!/bin/sh
# Code shape (issue 27, CONTRIBUTING.md): no function in compare/, driver/ or common/ longer
# than MAX_FN lines (100) and no .c file longer than MAX_FILE lines (700). The functions named
# in tests/code-shape.allow (one "file:function" a line) are known offenders waiting to be
# split: they may not grow past the length written beside them. DIRS="driver" checks only the
# driver. A function is measured from the line that opens its body at column 0 ("{") to its
# closing "}" at column 0, plus its signature lines, as clang-format lays them out. Prints
# every offender; exit 1 when there is one. Run by `make check`.
MAX_FN=${MAX_FN:-100}
MAX_FILE=${MAX_FILE:-700}
cd "$(dirname "$0")/.." || exit 2
rc=0
ALLOW=tests/code-shape.allow
for f in $(find ${DIRS:-compare driver common} -name '*.c' | sort); do
    n=$(wc -l < "$f")
    if [ "$n" -gt "$MAX_FILE" ]; then
        echo "$f: $n lines (limit $MAX_FILE)"
        rc=1
    fi
    awk -v max="$MAX_FN" -v file="$f" -v allow="$ALLOW" '
        BEGIN { while ((getline l < allow) > 0) if (l !~ /^#/) { split(l, p, " "); cap[p[1]] = p[2] } }
        /^[A-Za-z_].*\(/ && !/;[ \t]*$/ && !/^(typedef|struct [a-z_]+ \{|enum|static const|const)/ { sig = FNR; name = $0 }
        /^\{/ { start = sig ? sig : FNR }
        /^\}/ && start {
            len = FNR - start + 1
            sub(/\(.*/, "", name); n = split(name, w, /[ *]+/)
            key = file ":" w[n]
            lim = (key in cap) ? cap[key] : max
            if (len > lim) {
                printf "%s:%d: %s: %d lines (limit %d)\n", file, start, w[n], len, lim
                bad = 1
            }
            start = 0; sig = 0
        }
        END { exit bad }' "$f" || rc=1
done
exit $rc
