#!/bin/sh
# include-rooms: the includes point down, and each names its room.
#
# Only common/, driver/ and compare/ are on the include path, so a header in a room is included
# as "room/name.h" ("run/confirm.h", "engine/conn.h"); the headers of common/ and the top of
# driver/ and compare/ are included bare ("buf.h", "opts.h"), and tests/unit's own "t.h" too.
# Each program's rooms form one order, and an include may only go down it:
#     compare:  cmd -> run -> report -> analysis -> data -> util -> common
#     driver:   srv -> wrap -> engine -> wl -> proto -> common
# compare/main.c sits above cmd. driver's own .c files (main, agent, opts, opts_json, result:
# argv, the options and the result) sit above srv; its own headers (opts.h, result.h, agent.h:
# the vocabulary every room reads) sit below proto. common includes nothing of the programs,
# and neither program includes the other's headers. tests/unit and tests/fuzz may include any
# room.
#
#   sh tests/include-rooms.sh          check (make check): lists every include that climbs a
#                                      room or names no header on the include path; exit 1
#   sh tests/include-rooms.sh --fix    rewrites every quoted include in common/, driver/,
#                                      compare/, tests/unit and tests/fuzz to the form above,
#                                      from bare or prefixed names (headers have unique names);
#                                      running it again changes nothing
set -eu
cd "$(dirname "$0")/.."

mode=check
case "${1:-}" in
--fix) mode=fix ;;
'') ;;
*)
    echo "usage: sh tests/include-rooms.sh [--fix]" >&2
    exit 2
    ;;
esac

# The order of each program's rooms, highest first (a file may include its own rank or lower);
# "driver/.h" is the rank of a header at the top of driver/.
ranks='compare=7 compare/cmd=6 compare/run=5 compare/report=4 compare/analysis=3 compare/data=2
       compare/util=1
       driver=7 driver/srv=6 driver/wrap=5 driver/engine=4 driver/wl=3 driver/proto=2
       driver/.h=1'

headers=$(mktemp)
seen=$(mktemp)
trap 'rm -f "$headers" "$seen"' EXIT
find common driver compare tests/unit -name '*.h' | LC_ALL=C sort >"$headers"
files=$(find common driver compare tests/unit tests/fuzz -name '*.[ch]' | LC_ALL=C sort)

# shellcheck disable=SC2086 # one word per path, none holds a blank
awk -v mode="$mode" -v ranks="$ranks" -v list="$headers" -v seen="$seen" '
function dirname(p) { sub(/\/[^\/]*$/, "", p); return p }
function basename(p) { sub(/^.*\//, "", p); return p }
# The room of a path: its directory, "tests" for anything under tests/.
function room(p) { return p ~ /^tests\// ? "tests" : dirname(p) }
function program(r) { sub(/\/.*$/, "", r); return r }
# The rank of a file in the order of its program: that of its room, but for a header at the
# top of driver/.
function rank(p) { return p ~ /^driver\/[^\/]*\.h$/ ? RANK["driver/.h"] : RANK[room(p)] }
# What the compiler finds for "inc" from directory d: d first, then -Icommon -Idriver -Icompare
# (and -Itests/unit for the tests). "" when nothing.
function lookup(inc, d) {
    if ((d "/" inc) in H) return d "/" inc
    if (("common/" inc) in H) return "common/" inc
    if (("driver/" inc) in H) return "driver/" inc
    if (("compare/" inc) in H) return "compare/" inc
    if (d ~ /^tests\// && ("tests/unit/" inc) in H) return "tests/unit/" inc
    return ""
}
# Where a header is, whatever the form of its name: as the compiler finds it, else by its
# unique base name. "" when no header or more than one has that name.
function locate(inc, d,   p, b) {
    p = lookup(inc, d)
    if (p != "") return p
    b = basename(inc)
    if (N[b] == 1) return BY[b]
    if ((d "/" b) in H) return d "/" b
    return p
}
# The name a header is included by: bare at the top of a program or in common/ (or tests/unit),
# else its path below the program ("run/confirm.h").
function canonical(p) {
    if (p ~ /^tests\/unit\//) return basename(p)
    sub(/^(common|driver|compare)\//, "", p)
    return p
}
function complain(msg) { print FILENAME ":" FNR ": " msg > "/dev/stderr"; bad = 1 }
function check(inc,   d, p, rf, rh, pf, ph) {
    d = dirname(FILENAME)
    p = lookup(inc, d)
    if (p == "") {
        if (inc ~ /\//)
            complain("\"" inc "\" names no header (sh tests/include-rooms.sh --fix finds it)")
        else
            complain("\"" inc "\" is outside this room: a bare name is for the own room," \
                     " common/ and the top of driver/ and compare/ (sh" \
                     " tests/include-rooms.sh --fix names the room)")
        p = locate(inc, d)
        if (p == "") return
    }
    rf = room(FILENAME); rh = room(p)
    if (rf == "tests" || rf == rh) return
    pf = program(rf); ph = program(rh)
    if (ph == "tests") {
        complain("\"" inc "\" is a test header")
    } else if (pf == "common") {
        complain("\"" inc "\" climbs from common/ into " rh "/: common/ includes only itself")
    } else if (ph != "common" && pf != ph) {
        complain("\"" inc "\" crosses from " pf "/ into " ph "/: the programs share only common/")
    } else if (pf == ph) {
        if (!(rf in RANK) || !(rh in RANK)) {
            complain("\"" inc "\": room " (rf in RANK ? rh : rf) "/ has no place in the order" \
                     " (tests/include-rooms.sh)")
        } else if (rank(p) > rank(FILENAME)) {
            complain("\"" inc "\" climbs from " rf "/ up into " rh "/ (order: " ORDER[pf] ")")
        }
    }
}
function flush_file() {
    if (out == "") return
    close(out)
    if (system("cmp -s \"" cur "\" \"" out "\"") != 0) {
        system("cat \"" out "\" > \"" cur "\"")
        changed++
    }
    system("rm -f \"" out "\"")
    out = ""
}
BEGIN {
    n = split(ranks, a, " ")
    for (i = 1; i <= n; i++) { split(a[i], kv, "="); RANK[kv[1]] = kv[2] + 0 }
    ORDER["compare"] = "cmd -> run -> report -> analysis -> data -> util -> common"
    ORDER["driver"] = "driver/*.c -> srv -> wrap -> engine -> wl -> proto -> driver/*.h ->" \
                      " common"
}
FILENAME == list { H[$0] = 1; b = basename($0); N[b]++; BY[b] = $0; next }
FNR == 1 { if (mode == "fix") { flush_file(); cur = FILENAME; out = FILENAME ".rooms.tmp" } }
{
    inc = ""
    if (match($0, /^#include "[^"]+"/)) inc = substr($0, 11, RLENGTH - 11)
    if (mode == "check") {
        if (inc != "") check(inc)
        next
    }
    line = $0
    if (inc != "") {
        p = locate(inc, dirname(FILENAME))
        if (p == "") {
            complain("\"" inc "\" names no header (or more than one): left as it is")
        } else {
            line = "#include \"" canonical(p) "\"" substr($0, RLENGTH + 1)
        }
    }
    print line > out
}
END {
    print "ran" > seen
    if (mode == "fix") {
        flush_file()
        print "include-rooms: " (changed + 0) " files rewritten" > "/dev/stderr"
    }
    exit bad
}
' "$headers" $files
# A program that did not run (a quote in it ends the shell's string) must not pass as clean.
[ "$(cat "$seen")" = ran ] || {
    echo "include-rooms: the check did not run (tests/include-rooms.sh is broken)" >&2
    exit 1
}
