#!/bin/sh
# pairbench-test: untimed
# docs/architecture.md's map of the parts is the code's map: every .c file of common/, driver/
# and compare/ is named in its room's line (by its name without .c, or a pattern such as
# wl_*), and every name and pattern in the map is a file of that room (a .c, or a .h for a
# header-only module such as clock). The map is the first code block under "## The parts":
# the room in the first 17 columns, then the names up to two blanks, then what the room is
# for. Cost: well under a second (no binary runs).
. "$(dirname "$0")/../lib.sh"
DOC=$TOP/docs/architecture.md
[ -f "$DOC" ] || fail "docs/architecture.md missing"
cd "$TOP"
find common driver compare -name '*.[ch]' | LC_ALL=C sort > "$T/files"
[ -s "$T/files" ] || fail "no source files found under $TOP"

awk -v files="$T/files" '
function fail(msg) { print "FAIL: " msg > "/dev/stderr"; bad = 1 }
function glob(name,   re) { re = name; gsub(/\./, "\\.", re); gsub(/\*/, ".*", re); return "^" re "$" }
BEGIN {
    while ((getline f < files) > 0) {
        d = f; sub(/\/[^\/]*$/, "", d)
        b = f; sub(/^.*\//, "", b)
        FILE[f] = 1
        if (f ~ /\.c$/) { C[f] = d; CB[f] = b }
    }
}
/^## The parts/ { parts = 1; next }
parts && /^```/ { if (inmap) { done = 1; parts = 0 } else inmap = 1; next }
!inmap || done { next }
{
    head = substr($0, 1, 17)
    if (head ~ /[^ ]/) {
        room = head; gsub(/ /, "", room); sub(/\/$/, "", room)
        if (head ~ /^[^ ]/) top = room
        else room = top "/" room
        ROOMS[room] = 1
    }
    rest = substr($0, 18)
    if (rest == "" || rest ~ /^ /) next # what the room is for, on a line of its own
    names = rest; sub(/  .*$/, "", names)
    n = split(names, w, " ")
    for (i = 1; i <= n; i++) {
        nm = w[i]; found = 0
        if (nm ~ /\*/) {
            for (f in C) if (C[f] == room && CB[f] ~ glob(nm ".c")) { COVER[f] = 1; found = 1 }
        } else {
            base = nm; sub(/\.c$/, "", base)
            if ((room "/" base ".c") in FILE) { COVER[room "/" base ".c"] = 1; found = 1 }
            else if ((room "/" base ".h") in FILE) found = 1
        }
        if (!found) fail("the map names " room "/" nm ", which is no file")
    }
}
END {
    if (!inmap) fail("no map (a code block under \"## The parts\")")
    for (f in C) if (!(f in COVER)) fail(f " is not in the map (its room is " C[f] "/)")
    exit bad
}
' "$DOC" || fail "docs/architecture.md's map and the source tree differ (above)"
echo "ok: the map of docs/architecture.md names every .c file and nothing else"
