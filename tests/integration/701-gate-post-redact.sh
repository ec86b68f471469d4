#!/bin/sh
# pairbench-test: untimed
# --post against a receiver whose error body echoes the request's Authorization header
# (tests/receiver.js /echo-auth/): the warning on stderr shows the HTTP status and the body
# with the token replaced by ***, never the token; the gate's exit code stands. Judges the
# golden two-version run directory (--from), so nothing is measured. Cost: under 1 s.
. "$(dirname "$0")/../lib.sh"
need node
cp -r "$TOP/tests/golden/two-version" "$T/run"
port=$(free_port)
token=ghp_pairbenchSECRET0123456789
RECEIVER_TOKEN=$token start_bg receiver node "$TOP/tests/receiver.js" "$port" "$T/requests.jsonl"
wait_port "$port"
rc=0
GATE_TOKEN=$token "$COMPARE" gate --from "$T/run" --post "http://127.0.0.1:$port/echo-auth/o/r/issues/1/comments" \
    --post-token-env GATE_TOKEN > /dev/null 2> "$T/err" || rc=$?
assert_eq "$rc" 1 "gate exit code (the golden run regresses)"
grep -q "warning: comment not posted (the verdict stands): post: GET '.*': HTTP status 500: .*Bearer \*\*\*" "$T/err" \
    || fail "the warning does not show the redacted body: $(cat "$T/err")"
grep -q "$token" "$T/err" && fail "the token was printed to stderr"
grep -q "$token" "$T/requests.jsonl" || fail "the receiver did not get the token (test is void)"
exit 0
