#!/bin/sh
# pairbench-test: timed
# A server that slows as it runs is caught by `decay` even in fresh-server runs. The
# candidate is the reference server with a cost that builds up (driver serve tcp --grow-ns
# 8000: every request costs 8 µs more per 1000 served), the baseline the plain one; 3 rounds
# of 2.5 s without warm-up (the first fifth sees the server young). Every run is ok and
# carries a series; the row's `decay` (last fifth of the window against the first) is
# regressed for the candidate, its median far below the baseline's; `stall` is in the row
# too, and the row has a series that report.html draws in "Over time" and report.md
# mentions; the grid's interval_ms (50) is the series'. Cost: about 20 s, up to 6 confirmation rounds more on a loaded host (52 s at
# load 12 on 2 cores; at load 16 the plain server's decay spread over 0.26-1.94 and the
# row stayed undecided).
. "$(dirname "$0")/../lib.sh"
need node
cat > "$T/grid.json" <<JSON
{"name": "life", "defaults": {"protocol": "tcp", "connections": 2, "payload": 64, "interval_ms": 50}}
JSON
cat > "$T/spec.json" <<JSON
{"versions": [
   {"name": "plain", "server": {"tcp": "$DRIVER serve tcp --port {port} --payload 64"}},
   {"name": "growing", "server": {"tcp": "$DRIVER serve tcp --port {port} --payload 64 --grow-ns 8000"}}],
 "grids": ["$T/grid.json"], "runs": 3, "warmup": 0, "duration": 2.5}
JSON
# --confirm: on a loaded host the fifths of a run move with the other processes, and a row
# still undecided after 3 rounds gets up to 6 more (none on a quiet one)
"$COMPARE" run --spec "$T/spec.json" --confirm 6 --out "$T/out" > "$T/run.out" 2> "$T/run.err" ||
    { cat "$T/run.err" >&2; fail "compare run exited $?"; }
echo "decay: $(json_get "$T/out/summary.json" 'JSON.stringify(this.rows[0].metrics.decay.values)')"
assert_eq "$(json_get "$T/out/summary.json" 'this.rows[0].status')" ok "row status"
assert_eq "$(json_get "$T/out/summary.json" 'this.rows[0].metrics.decay.vs_baseline.growing.verdict')" \
    regressed "decay verdict of the growing server"
assert_eq "$(json_get "$T/out/summary.json" 'const v = this.rows[0].metrics.decay.values; v.growing.median < 0.6 && v.growing.median < v.plain.median / 1.5')" \
    true "decay medians"
assert_eq "$(json_get "$T/out/summary.json" 'typeof this.rows[0].metrics.stall.values.plain.median')" number "stall in the row"
assert_eq "$(json_get "$T/out/summary.json" 'this.rows[0].series.versions.growing.length >= 3')" true "the growing server's runs in the row's series"
# the grid's interval_ms reaches the driver: 50 ms intervals, 50 of them in 2.5 s
assert_eq "$(json_get "$T/out/summary.json" '(r => [r.interval_ms, r.throughput.length].join(" "))(this.rows[0].series.versions.plain[0])')" \
    "50 50" "the series' interval and points"
grep -q '<section id="series">' "$T/out/report.html" || fail "report.html has no Over time section"
grep -q 'data-metric="series"' "$T/out/report.html" || fail "report.html draws no series chart"
grep -q "Over time: the throughput series of 1 of 1 configurations" "$T/out/report.md" ||
    fail "report.md does not mention the series"
echo "581-compare-decay: ok"
