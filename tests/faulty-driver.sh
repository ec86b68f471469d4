#!/bin/sh
# A driver that misbehaves on purpose, for the fault tests: called by compare as
#   faulty-driver.sh MODE REAL_DRIVER --config FILE.json
# On configurations whose payload is 128 it does MODE; on every other one it execs the real
# driver, so the other rows of the same run measure normally.
#   kill9   dies by SIGKILL mid-run       hang    never finishes (a child sleeps too)
#   nojson  exits 0 printing nothing      badjson prints a broken JSON object
#   exit1   exits 1 with a message        partial prints valid JSON without the result keys
mode=$1; real=$2; shift 2
cfg=$2
if grep -q '"payload": *128[,}]' "$cfg" 2>/dev/null; then
    case "$mode" in
    kill9) sleep 0.2; kill -9 $$ ;;
    hang) sleep 6001 & wait ;;
    nojson) exit 0 ;;
    badjson) printf '{"schema": "pairbench.result/1", "ops": \n'; exit 0 ;;
    exit1) echo "faulty-driver: refusing on purpose" >&2; exit 1 ;;
    partial) echo '{"schema": "pairbench.result/1"}'; exit 0 ;;
    esac
fi
exec "$real" "$@"
