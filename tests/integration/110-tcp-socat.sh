#!/bin/sh
# pairbench-test: untimed
# TCP echo against a real independent peer (socat's echo): every byte verified, exact
# operation counts, no errors; payloads from 1 B to 64 KiB, pipelines and windows.
. "$(dirname "$0")/../lib.sh"
need socat
need node

port=$(free_port)
start_bg socat socat "TCP-LISTEN:$port,bind=127.0.0.1,fork,reuseaddr" PIPE
wait_port "$port"

for args in "--payload 1 --requests 2000" \
            "--payload 1k --pipeline 16 --window 4 --connections 2 --workers 2 --requests 4001" \
            "--payload 64k --pipeline 2 --window 2 --requests 200"; do
    # shellcheck disable=SC2086
    "$DRIVER" tcp --port "$port" --warmup 0 $args > "$T/r.json" || fail "driver exited $? ($args)"
    n=${args##*--requests }
    assert_eq "$(json_get "$T/r.json" '[this.ops, JSON.stringify(this.errors)].join(" ")')" \
        "$n {\"connect\":0,\"io\":0,\"protocol\":0,\"verify\":0,\"timeout\":0}" "socat $args"
done

# duration mode with warm-up: a positive throughput over the whole requested window
"$DRIVER" tcp --port "$port" --warmup 0.1 --duration 0.3 --connections 2 > "$T/d.json" \
    || fail "driver exited $? (duration mode)"
assert_eq "$(json_get "$T/d.json" 'this.ops > 0 && this.errors.verify === 0 && this.window_s === 0.3 && this.elapsed_s >= this.window_s && Math.abs(this.throughput - this.ops / this.elapsed_s) <= 1')" \
    true "duration mode against socat: $(json_get "$T/d.json" 'JSON.stringify([this.ops, this.window_s, this.elapsed_s, this.throughput])')"
echo "ok: socat echo verified"
