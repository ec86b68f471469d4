#!/bin/sh
# pairbench-test: untimed
# `compare system reset` trusts its state file only as far as it checks it: a file naming
# another path for a known knob, a knob this host does not have, a value the knob's file does
# not take, an unknown key, another schema or a knob twice is refused with exit 2 naming the
# JSON path and the value, before anything is written: the file it pointed at keeps its
# content, the knob keeps its value and the state file stays. A state file that holds a
# knob's current value (so nothing changes on this host) is accepted and removed. Needs root
# (reset writes /sys and /proc/sys). Cost: well under a second.
. "$(dirname "$0")/../lib.sh"
need node
[ "$(id -u)" -eq 0 ] || skip "reset needs root"

knob=kernel.randomize_va_space
kpath=/proc/sys/kernel/randomize_va_space
[ -r "$kpath" ] || skip "$kpath is absent here"
kval=$(head -n 1 "$kpath")
other=0; [ "$kval" = 0 ] && other=1
echo "untouched" > "$T/victim"

entry() { # name path before
    printf '{"name": "%s", "path": "%s", "before": "%s", "after": "0"}' "$1" "$2" "$3"
}
refused() { # what expected-in-message state-json
    printf '%s\n' "$3" > "$T/state.json"
    rc=0
    "$COMPARE" system reset --state "$T/state.json" > "$T/out" 2> "$T/err" || rc=$?
    [ "$rc" -eq 2 ] || fail "$1: reset exited $rc (expected 2): $(cat "$T/out" "$T/err")"
    grep -qF -- "$2" "$T/err" || fail "$1: the message does not name '$2': $(cat "$T/err")"
    [ "$(cat "$T/victim")" = untouched ] || fail "$1: the file the state named was written"
    [ "$(head -n 1 "$kpath")" = "$kval" ] || fail "$1: $knob changed to $(head -n 1 "$kpath")"
    [ -f "$T/state.json" ] || fail "$1: the refused state file was removed"
    echo "$1: $(head -n 1 "$T/err")"
}
S='"schema": "pairbench.system-tune/1", "tuned_at": "2026-12-07T00:00:00Z"'

refused "another path" "\$.knobs[0].path: expected '$kpath'" \
    "{$S, \"knobs\": [$(entry $knob "$T/victim" "$other")]}"
refused "unknown knob" "\$.knobs[0].name: 'evil.knob'" \
    "{$S, \"knobs\": [$(entry evil.knob "$T/victim" 1)]}"
refused "bad value" "\$.knobs[0].before: '7' for $knob: expected an integer from 0 to 2" \
    "{$S, \"knobs\": [$(entry $knob "$kpath" 7)]}"
refused "not a number" "\$.knobs[0].before: '1; x'" \
    "{$S, \"knobs\": [$(entry $knob "$kpath" '1; x')]}"
refused "unknown key" "\$.knobs[0]: unknown key 'mode'" \
    "{$S, \"knobs\": [{\"name\": \"$knob\", \"path\": \"$kpath\", \"before\": \"$other\", \"after\": \"0\", \"mode\": \"x\"}]}"
refused "other schema" "\$.schema: expected \"pairbench.system-tune/1\", got \"x/9\"" \
    "{\"schema\": \"x/9\", \"tuned_at\": \"t\", \"knobs\": []}"
refused "twice" "\$.knobs[1].name: '$knob' again" \
    "{$S, \"knobs\": [$(entry $knob "$kpath" "$kval"), $(entry $knob "$kpath" "$other")]}"
refused "a later bad entry" "\$.knobs[1].path" \
    "{$S, \"knobs\": [$(entry $knob "$kpath" "$other"), $(entry $knob "$T/victim" "$other")]}"

# accepted: the knob's current value, so this host is left as it is
printf '{%s, "knobs": [%s]}\n' "$S" "$(entry $knob "$kpath" "$kval")" > "$T/state.json"
"$COMPARE" system reset --state "$T/state.json" > "$T/out" 2> "$T/err" ||
    fail "a valid state file was refused: $(cat "$T/err")"
[ ! -e "$T/state.json" ] || fail "a valid state file was not removed after reset"
[ "$(head -n 1 "$kpath")" = "$kval" ] || fail "$knob is not as it was"
echo ok
