#!/bin/sh
# pairbench-test: untimed
# TCP echo against the reference server (`driver serve tcp`): --requests N --warmup 0 makes
# the server count exactly N requests, across pipelines, windows, workers and payloads; every
# result is complete and error-free.
. "$(dirname "$0")/../lib.sh"
need node

run_case() { # payload, then client flags
    payload=$1; shift
    port=$(free_port)
    start_bg "serve$port" "$DRIVER" serve tcp --port "$port" --payload "$payload" --workers 2
    spid=$LAST_PID
    wait_port "$port"
    total=0
    for n in 1 997 2000; do
        "$DRIVER" tcp --port "$port" --payload "$payload" --requests "$n" --warmup 0 "$@" \
            > "$T/r.json" || fail "driver exited $? ($*)"
        # one node call per run: ops, schema, errors, samples = batches, throughput > 0
        assert_eq "$(json_get "$T/r.json" '[this.ops, this.schema, JSON.stringify(this.errors),
            this.latency_us.samples === this.batches && this.batches > 0,
            this.throughput > 0 && this.elapsed_s > 0].join(" ")')" \
            "$n pairbench.result/1 {\"connect\":0,\"io\":0,\"protocol\":0,\"verify\":0,\"timeout\":0} true true" \
            "result of $* --requests $n"
        total=$((total + n))
    done
    kill -TERM "$spid"
    i=0
    while kill -0 "$spid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    assert_eq "$(json_get "$T/serve$port.out" 'this.requests')" "$total" "server requests ($*)"
}

run_case 64 --pipeline 16 --window 4
run_case 64 --connections 8 --workers 3 --pipeline 7 --window 3
run_case 1 --connections 2 --workers 2 --pipeline 64
run_case 65536 --connections 2 --pipeline 4 --window 2

# the connections are dealt round robin across the server's workers, whichever accepted them
port=$(free_port)
start_bg deal "$DRIVER" serve tcp --port "$port" --payload 64 --workers 2
spid=$LAST_PID
wait_port "$port"
for i in 1 2 3; do
    "$DRIVER" tcp --port "$port" --payload 64 --connections 16 --workers 4 --window 4 \
        --requests 4000 --warmup 0 > "$T/deal.json" || fail "16-connection run exited $?"
done
kill -TERM "$spid"
i=0
while kill -0 "$spid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
# three runs of 16 and the readiness probe's connection(s) (wait_port): within one of even
assert_eq "$(json_get "$T/deal.out" '(p => p.length === 2 && p[0] + p[1] === this.connections &&
    this.connections >= 48 && Math.abs(p[0] - p[1]) <= 1)(this.per_worker)')" true \
    "connections per server worker: $(cat "$T/deal.out")"
echo "ok: server counts match --requests exactly; connections dealt evenly"
