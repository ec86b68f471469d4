#!/bin/sh
# Checks in the tests that cannot fail: an assertion followed by `|| true` (grep -q, test,
# [ ], a JavaScript comparison), and a grep or includes() for an empty pattern, which every
# text matches (a literal "" or '', or a variable the file sets to '' and then greps for).
# A count captured with `grep -c ... || true` is not an assertion and passes.
# Usage: sh tests/test-lint.sh [FILE...]   (default: the test scripts and helpers in tests/)
# Exit 0 clean, 1 with one line per finding (FILE:LINE: what, the line). Part of make check.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
if [ $# -eq 0 ]; then
    set -- $(ls tests/*.sh tests/*.js tests/integration/*.sh tests/peers/*.js 2> /dev/null |
        grep -v '^tests/test-lint\.sh$')
fi
awk '
FNR == 1 { delete empty }
function say(what) { printf "%s:%d: %s: %s\n", FILENAME, FNR, what, $0; bad = 1 }
# a variable set to the empty string: a later grep "$VAR" matches everything
match($0, /(^|[^A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*=(\047\047|"")($|[ ;)])/) {
    v = substr($0, RSTART, RLENGTH); sub(/^[^A-Za-z_]/, "", v); sub(/=.*/, "", v); empty[v] = 1
}
/\|\| *true/ {
    if ($0 ~ /grep( +-[A-Za-z]*)* +-[A-Za-z]*q/ && $0 !~ /grep( +-[A-Za-z]*)* +-[A-Za-z]*c/)
        say("`|| true` after grep -q")
    else if ($0 ~ /(^|[;&|({ ])(\[|test) [^|]*\|\| *true/)
        say("`|| true` after a test")
    else if ($0 ~ /(===|!==|<=|>=|[A-Za-z0-9_)\]] [<>] [A-Za-z0-9_(])[^|]*\|\| *true *[]),;]/)
        say("`|| true` after a comparison")
}
/grep( +-[A-Za-z-]*)* +(""|\047\047)( |$)/ { say("grep for an empty pattern") }
/\.includes\((""|\047\047)\)/ { say("includes() of the empty string") }
/grep( +-[A-Za-z-]*)* +"\$[A-Za-z_]+"/ {
    s = $0
    while (match(s, /grep( +-[A-Za-z-]*)* +"\$[A-Za-z_]+"/)) {
        g = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
        sub(/.*"\$/, "", g); sub(/"$/, "", g)
        if (g in empty) say("grep for $" g ", set to the empty string in this file")
    }
}
END { exit bad }
' "$@"
