#!/bin/sh
# pairbench-test: timed
# A measured window that ends while every in-flight batch is still a warm-up one (a round
# trip longer than the window; a process descheduled across the window on a loaded machine,
# here by SIGSTOP) must still measure a batch: the worker that has not started a measured
# batch by the end of the window starts one, bounded by --timeout, and the run succeeds with
# that batch's full round trip. Warm-up replies stay uncounted. A server that never answers
# still ends the run (exit 3) by the drain deadline.
. "$(dirname "$0")/../lib.sh"
need node

port=$(free_port)
start_bg slow "$DRIVER" serve tcp --port "$port" --delay-us 300000
wait_port "$port"

# window 0.05 + 0.1 s, round trip 0.3 s: the warm-up batch completes after the window ends
"$DRIVER" tcp --port "$port" --warmup 0.05 --duration 0.1 --timeout 5 > "$T/r.json" \
    || fail "round trip longer than the window: driver exited $?"
cat "$T/r.json"
assert_eq "$(json_get "$T/r.json" '[this.ops >= 1, this.ops === this.batches,
    this.latency_us.p50 >= 290000, this.elapsed_s >= 0.29,
    JSON.stringify(this.errors)].join(" ")')" \
    'true true true true {"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0}' \
    "tcp, window shorter than a round trip"

# colocated HTTP, 2 connections on 1 worker (the case seen on a loaded machine)
"$DRIVER" http --serve --delay-us 300000 --connections 2 --warmup 0.1 --duration 0.2 \
    > "$T/h.json" || fail "colocated http, round trip longer than the window: driver exited $?"
assert_eq "$(json_get "$T/h.json" '[this.ops >= 1, this.latency_us.p50 >= 290000,
    JSON.stringify(this.errors)].join(" ")')" \
    'true true {"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0}' \
    "colocated http, window shorter than a round trip"

# the field case: a colocated HTTP run whose process is stopped (descheduled) from before t0
# to after the end of the window; it used to end with zero ops and exit 3
run_stopped "$T/s.json" "$T/s.err" "$DRIVER" http --serve --warmup 0.5 --duration 0.2
assert_eq "$RC" 0 "colocated http stopped across the window: exit code ($(cat "$T/s.err"))"
assert_eq "$(json_get "$T/s.json" '[this.ops >= 1, this.ops === this.batches,
    JSON.stringify(this.errors)].join(" ")')" \
    'true true {"connect":0,"io":0,"protocol":0,"verify":0,"timeout":0}' \
    "colocated http stopped across the window"

# no reply within --timeout: the extra measured batch is abandoned at the drain deadline
port2=$(free_port)
start_bg stalled "$DRIVER" serve tcp --port "$port2" --delay-us 10000000
stalled=$LAST_PID
wait_port "$port2"
assert_exit 3 "$DRIVER" tcp --port "$port2" --warmup 0.05 --duration 0.1 --timeout 0.3
kill -9 "$stalled" # it would sit out its 10 s delay before honouring TERM
echo "ok: a window shorter than a round trip still measures one batch"
