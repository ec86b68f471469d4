#!/bin/sh
# pairbench-test: untimed
# --serve: the reference server runs inside the driver process on a free port; the result
# says so, its CPU covers both sides, and --requests stays exact.
. "$(dirname "$0")/../lib.sh"
need node

"$DRIVER" tcp --serve --serve-workers 2 --connections 4 --workers 2 --pipeline 8 --window 2 \
    --warmup 0 --requests 10000 > "$T/r.json" || fail "driver --serve exited $?"
assert_eq "$(json_get "$T/r.json" '[this.ops, this.config.serve, this.config.serve_workers, this.config.port > 0, this.errors.verify + this.errors.io].join(" ")')" \
    "10000 true 2 true 0" "--serve result"

# a 1 s window: on a loaded machine the whole process can be descheduled for a 0.3 s one, and
# then it measures one late batch and (rightly) next to no CPU
"$DRIVER" tcp --serve --warmup 0.1 --duration 1 --payload 4k > "$T/d.json" \
    || fail "driver --serve (duration) exited $?"
assert_eq "$(json_get "$T/d.json" 'this.ops > 0 && this.cpu.user_s + this.cpu.sys_s > 0 && this.cpu.percent > 0 && this.rss_peak_kib > 0')" \
    true "--serve duration result with CPU: $(cat "$T/d.json")"

# a config file with the same keys as the flags
cat > "$T/c.json" <<JSON
{"protocol": "tcp", "serve": true, "connections": 2, "workers": 2, "pipeline": 4,
 "payload": "2k", "warmup": 0, "requests": 999}
JSON
"$DRIVER" tcp --config "$T/c.json" > "$T/c.out" || fail "driver --config exited $?"
assert_eq "$(json_get "$T/c.out" '[this.ops, this.config.pipeline, this.config.payload].join(" ")')" \
    "999 4 2048" "--config result"
# docs/architecture.md#driver-result's bare form: "<driver> --config FILE.json", the file naming the protocol
"$DRIVER" --config "$T/c.json" > "$T/c2.out" || fail "driver --config (no protocol word) exited $?"
assert_eq "$(json_get "$T/c2.out" '[this.protocol, this.ops].join(" ")')" "tcp 999" "bare --config"
# many connections, most of them idle most of the time, on both sides of one process
"$DRIVER" tcp --serve --serve-workers 2 --connections 1000 --workers 2 --warmup 0 \
    --requests 3000 > "$T/m.json" || fail "driver --serve --connections 1000 exited $?"
assert_eq "$(json_get "$T/m.json" '[this.ops, this.errors.connect, this.errors.io].join(" ")')" \
    "3000 0 0" "1000 connections"
echo "ok: colocated mode"
