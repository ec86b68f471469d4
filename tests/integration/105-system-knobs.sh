#!/bin/sh
# pairbench-test: untimed
# compare system show | tune | reset on this host's real knobs. `show` runs as an unprivileged
# user (nobody, through setpriv) and prints every knob with the value the test reads itself
# from /sys and /proc/sys (absent ones as absent); `tune` as nobody is refused (exit 2). As
# root: `tune` sets each present knob that has a quiet value to it, and writes the state file
# (--state); a `compare run` while tuned records the tuned values in meta.json's
# environment.knobs; a second `tune` keeps the first one's earlier values; `reset` puts every
# knob back as the test found it (read back here, file by file) and removes the state file;
# a second reset has nothing to do. A trap writes the saved values back whatever happens, so
# the host is left as it was even when a check fails. Without root only `show` is checked
# and the rest is skipped with the reason. Cost: about 3 s.
. "$(dirname "$0")/../lib.sh"
need setpriv

# the knob files, listed here independently of the tool
knobs="/sys/devices/system/cpu/cpuidle/current_governor
/sys/module/haltpoll/parameters/guest_halt_poll_ns
/sys/module/haltpoll/parameters/guest_halt_poll_allow_shrink
/sys/devices/system/cpu/cpufreq/boost
/sys/devices/system/cpu/intel_pstate/no_turbo
/proc/sys/kernel/randomize_va_space
/proc/sys/net/core/busy_poll"
for f in /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor; do
    [ -f "$f" ] && knobs="$knobs
$f"
done
: > "$T/orig"
for f in $knobs; do
    [ -r "$f" ] && printf '%s %s\n' "$f" "$(head -n 1 "$f")" >> "$T/orig"
done
restore() {
    while read -r f v; do
        [ "$(head -n 1 "$f")" = "$v" ] || printf '%s\n' "$v" > "$f" 2>/dev/null || true
    done < "$T/orig"
}
trap 'restore; cleanup' EXIT

# 1. show, as nobody: every knob's value as read here, absent ones named absent
pub=$(mktemp -d "${TMPDIR:-/tmp}/pairbench-sys.XXXXXX")
cp "$COMPARE" "$pub/compare" && chmod 755 "$pub" "$pub/compare"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" -eq 0 ]; then
    SHOW() { as_nobody "$pub/compare" "$@"; }
else
    SHOW() { "$pub/compare" "$@"; }
fi
rc=0
SHOW system show --state "$T/none.json" > "$T/show.txt" 2> "$T/show.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/show.err" >&2; rm -rf "$pub"; fail "show as $(id -un): exit $rc"; }
SHOW system show --json --state "$T/none.json" > "$T/show.json" || fail "show --json failed"
[ "$(id -u)" -ne 0 ] || assert_exit 2 as_nobody "$pub/compare" system tune --state "$T/x.json" 2> "$T/tune-nobody.err"
rm -rf "$pub"
[ "$(id -u)" -ne 0 ] || grep -q "needs root" "$T/tune-nobody.err" || fail "tune as nobody: $(cat "$T/tune-nobody.err")"
n=$(json_get "$T/show.json" 'this.knobs.length')
[ "$n" -ge 7 ] || fail "show lists $n knobs, expected at least 7"
i=0
while [ $i -lt "$n" ]; do
    path=$(json_get "$T/show.json" "this.knobs[$i].path")
    got=$(json_get "$T/show.json" "this.knobs[$i].value === null ? '<absent>' : this.knobs[$i].value")
    if [ -r "$path" ]; then want=$(head -n 1 "$path"); else want='<absent>'; fi
    assert_eq "$got" "$want" "show: $path"
    i=$((i + 1))
done
grep -q "kernel.randomize_va_space" "$T/show.txt" || fail "show: $(cat "$T/show.txt")"
absent=$(json_get "$T/show.json" 'this.knobs.filter(k => k.value === null).length')
[ "$absent" -eq 0 ] || grep -q "absent on this host" "$T/show.txt" || fail "absent knobs not named: $(cat "$T/show.txt")"
grep -q "^not tuned" "$T/show.txt" || fail "show without a state file: $(tail -1 "$T/show.txt")"
assert_exit 2 "$COMPARE" system frobnicate 2> /dev/null
assert_exit 2 "$COMPARE" system show --state 2> /dev/null

[ "$(id -u)" -eq 0 ] || skip "tune and reset write /sys and /proc/sys and need root (show checked as $(id -un))"

# 2. tune: every present knob with a quiet value now has it; the state names the earlier ones
state=$T/state/system-tune.json
rc=0
"$COMPARE" system tune --state "$state" > "$T/tune.out" 2> "$T/tune.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/tune.out" "$T/tune.err" >&2; fail "tune: exit $rc"; }
"$COMPARE" system show --json --state "$state" > "$T/tuned.json"
assert_eq "$(json_get "$T/tuned.json" 'this.knobs.filter(k => k.value !== null && k.quiet !== null && !k.is_quiet).map(k => k.name).join(" ")')" "" \
    "knobs not quiet after tune"
assert_eq "$(json_get "$T/tuned.json" 'this.tuned')" true "show after tune"
changed=$(json_get "$state" 'this.knobs.length')
i=0
while [ $i -lt "$changed" ]; do
    path=$(json_get "$state" "this.knobs[$i].path")
    assert_eq "$(json_get "$state" "this.knobs[$i].before")" "$(awk -v p="$path" '$1 == p {print $2}' "$T/orig")" \
        "state: the earlier value of $path"
    i=$((i + 1))
done

# 3. meta.json records the knobs as they were during the run
cat > "$T/grid.json" <<JSON
{"name": "k", "configs": [{"protocol": "tcp", "connections": 1, "payload": 64}]}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [{"name": "a", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
              {"name": "b", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["$T/grid.json"], "runs": 1, "warmup": 0.05, "duration": 0.1}
JSON
"$COMPARE" run --spec "$T/spec.json" --out "$T/run" > /dev/null 2> "$T/run.err" ||
    { cat "$T/run.err" >&2; fail "compare run while tuned failed"; }
assert_eq "$(json_get "$T/run/meta.json" 'this.environment.knobs["kernel.randomize_va_space"]')" 0 \
    "meta.json: ASLR during the run"
assert_eq "$(json_get "$T/run/meta.json" 'JSON.stringify(Object.keys(this.environment.knobs))')" \
    "$(json_get "$T/tuned.json" 'JSON.stringify(this.knobs.map(k => k.name))')" "meta.json: every knob"

# 4. a second tune keeps the first one's earlier values; reset restores exactly them
"$COMPARE" system tune --state "$state" > /dev/null 2>&1 || fail "second tune failed"
assert_eq "$(json_get "$state" 'this.knobs.length')" "$changed" "second tune: state entries"
rc=0
"$COMPARE" system reset --state "$state" > "$T/reset.out" 2> "$T/reset.err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/reset.out" "$T/reset.err" >&2; fail "reset: exit $rc"; }
while read -r f v; do
    assert_eq "$(head -n 1 "$f")" "$v" "after reset: $f"
done < "$T/orig"
[ ! -e "$state" ] || fail "reset left the state file"
"$COMPARE" system reset --state "$state" > "$T/reset2.out" || fail "second reset failed"
grep -q "nothing to reset" "$T/reset2.out" || fail "second reset: $(cat "$T/reset2.out")"
echo ok
