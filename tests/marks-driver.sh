#!/bin/sh
# A driver that writes the window marks itself, for the window-accounting tests: called by
# compare as   marks-driver.sh MODE REAL_DRIVER --config FILE.json
#   idle   marks a 0.3 s window in which nothing is sent, then runs the real driver (its load
#          falls outside the window: the server's window figures must be about zero)
#   load   marks a window around the whole real driver run
#   none   writes no marks (the real driver is told of no pipe either)
mode=$1; real=$2; shift 2
case "$mode" in
idle)
    printf 'start\n' >&"$PAIRBENCH_WINDOW_FD"; sleep 0.3; printf 'end\n' >&"$PAIRBENCH_WINDOW_FD"
    unset PAIRBENCH_WINDOW_FD; exec "$real" "$@" ;;
load)
    printf 'start\n' >&"$PAIRBENCH_WINDOW_FD"
    env -u PAIRBENCH_WINDOW_FD "$real" "$@"; rc=$?
    printf 'end\n' >&"$PAIRBENCH_WINDOW_FD"; exit $rc ;;
none) unset PAIRBENCH_WINDOW_FD; exec "$real" "$@" ;;
esac
echo "marks-driver: unknown mode '$mode'" >&2; exit 2
