#!/bin/sh
# pairbench-test: untimed
# Call paths of the counted runs as folded stacks: a run with instructions counted under
# valgrind writes OUT/flame/<configuration id>.<version>.folded for each version, lines
# "a;b;c count" (instructions per operation on that path, as flamegraph.pl and speedscope
# read them), and the function only the candidate runs (driver serve --extra-allocs: its
# srv_extra_request) costs far more on the candidate's paths than on the baseline's.
# Cost: about 15 s (2 timed, 2 valgrind rounds).
. "$(dirname "$0")/../lib.sh"
need valgrind

serve_driver=$(valgrind_driver)
[ -n "$serve_driver" ] || skip "no plain build of the driver to run under valgrind"
srv="$serve_driver serve tcp --port {port}"
write_grid "$T/grid.json" t '"protocol": "tcp", "connections": 1'
write_spec "$T/spec.json" tcp "$T/grid.json" '"runs": 1, "warmup": 0.1, "duration": 0.3,
 "instructions": {"source": "valgrind", "runs": 1, "requests": 500, "warmup_requests": 50, "idle_s": 0.1}' \
    plain "$srv" alloc "$srv --extra-allocs 4"
rc=0
"$COMPARE" run --spec "$T/spec.json" --out "$T/o" > /dev/null 2> "$T/err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/err" >&2; fail "compare run exited $rc"; }
n=$(ls "$T/o/flame" | grep -c '\.folded$')
assert_eq "$n" "2" "folded files"
base=$(ls "$T/o/flame"/*.plain.folded) || fail "no baseline folded file"
cand=$(ls "$T/o/flame"/*.alloc.folded) || fail "no candidate folded file"
bad=$(grep -cv '^[^ ][^;]*\(;[^;]*\)* [0-9][0-9]*$' "$base" "$cand" | awk -F: '{s += $2} END {print s}')
assert_eq "$bad" "0" "lines not in the folded format"
# the paths through srv_extra_request cost far more per operation in the candidate
sum_through() { awk '/srv_extra_request/ {s += $NF} END {print s + 0}' "$1"; }
b=$(sum_through "$base")
c=$(sum_through "$cand")
got=$(awk -v b="$b" -v c="$c" 'BEGIN {print (c > b + 50) ? "more" : "not more"}')
assert_eq "$got" "more" "instructions per operation through srv_extra_request ($b -> $c)"
# the stacks sum to about the instructions per operation of the window
got=$(awk '{s += $NF} END {print (s > 100) ? "many" : "few"}' "$cand")
assert_eq "$got" "many" "instructions per operation in the candidate's stacks"
