#!/bin/sh
# pairbench-test: untimed
# Provenance end to end with a real (tiny) comparison: two versions of the reference TCP echo
# server, one configuration, 2 rounds of 0.2 s (--confirm 2: up to 2 more when borderline,
# which report.html states). meta.json's dataset hash equals sha256sum of
# runs.jsonl, the spec's hash_sources are hashed as sha256sum hashes them (sorted by path),
# the environment is filled in, and report.html shows every hash and loads clean in Chromium.
# Then one byte of runs.jsonl changes: `compare report` refuses it naming the line, and with
# --accept-modified warns and the page says so.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/html_lib.sh"
need sha256sum

mkdir -p "$T/w/src"
printf 'int main(void) { return 0; }\n' > "$T/w/src/b.c"
printf '/* a */\n' > "$T/w/src/a.c"
printf 'int x;\n' > "$T/w/src/a.h"
cat > "$T/w/grid.json" <<JSON
{"name": "tcp-one", "configs": [{"protocol": "tcp", "connections": 2, "payload": 64, "window": 2}]}
JSON
cat > "$T/w/spec.json" <<JSON
{"versions": [
   {"name": "base", "server": {"tcp": "$DRIVER serve tcp --port {port}"}},
   {"name": "cand", "server": {"tcp": "$DRIVER serve tcp --port {port}"}}],
 "grids": ["grid.json"], "runs": 2, "warmup": 0.1, "duration": 0.2,
 "hash_sources": ["src/*.c", "src/a.h"]}
JSON
rc=0
(cd "$T/w" && "$COMPARE" run --spec spec.json --confirm 2 --out "$T/run") > /dev/null 2> "$T/run.err" || rc=$?
[ $rc -eq 0 ] || fail "compare run exited $rc: $(tail -n 5 "$T/run.err")"

sum=$(sha256sum "$T/run/runs.jsonl" | cut -d' ' -f1)
assert_eq "$(json_get "$T/run/meta.json" 'this.dataset.sha256')" "$sum" "dataset hash in meta.json"
want=$(cd "$T/w" && sha256sum src/a.c src/a.h src/b.c | awk '{printf "%s=%s ", $2, $1}')
got=$(json_get "$T/run/meta.json" 'this.sources.map(s => s.path + "=" + s.sha256).join(" ") + " "')
assert_eq "$got" "$want" "measured sources, sorted by path"
for k in machine cpu_model cores_logical memory_bytes os kernel arch governor affinity compiler; do
    v=$(json_get "$T/run/meta.json" "this.environment.$k")
    [ -n "$v" ] && [ "$v" != undefined ] && [ "$v" != null ] || fail "environment.$k is '$v'"
done
assert_eq "$(json_get "$T/run/meta.json" 'this.environment.cores_logical')" "$(getconf _NPROCESSORS_ONLN)" \
    "logical cores"
json_get "$T/run/meta.json" 'this.environment.libraries.openssl' | grep -q '^3\.' ||
    fail "environment.libraries.openssl is not OpenSSL 3"
assert_eq "$(json_get "$T/run/meta.json" 'this.environment.libraries.hiredis')" 1.2.0 "hiredis version"

html="$T/run/report.html"
grep -q "$sum" "$html" || fail "report.html does not show the dataset hash"
for h in $(cd "$T/w" && sha256sum src/a.c src/a.h src/b.c | cut -d' ' -f1); do
    grep -q "$h" "$html" || fail "report.html does not show source hash $h"
done
grep -q 'src/a.h' "$html" || fail "report.html does not name the measured sources"
# the CPU's identity beside its model name in both reports (x86: /proc/cpuinfo's family,
# model and stepping; a model name such as "AMD EPYC" covers several generations)
fam=$(awk -F': *' '/^cpu family/ {print $2; exit}' /proc/cpuinfo)
if [ -n "$fam" ]; then
    id=$(json_get "$T/run/meta.json" 'this.environment.cpu_id')
    case "$id" in "x86 family $fam model "*" stepping "*) ;; *) fail "environment.cpu_id is '$id'" ;; esac
    grep -qF "$(json_get "$T/run/meta.json" 'this.environment.cpu_model') ($id)" "$T/run/report.md" ||
        fail "report.md does not give the CPU identity '$id'"
    grep -qF "($id)" "$html" || fail "report.html does not give the CPU identity '$id'"
fi
# adaptive confirmation (--confirm 2) is stated as report.md states it: cap, rule, the rows
# that got extra rounds (borderline or not, whichever this noisy A/A pair turned out)
assert_eq "$(json_get "$T/run/meta.json" 'this.confirmation.max_extra_rounds')" 2 "confirmation cap"
grep -q 'Adaptive confirmation[^<]*at most 2 extra rounds per row' "$html" ||
    fail "report.html does not state adaptive confirmation"
grep -q 'Rule: a row is borderline when' "$html" || fail "report.html does not state the rule"
json_get "$T/run/meta.json" 'Object.entries(this.confirmation.rows).map(([id, n]) =>
    "tcp · 64 B · window2 · 2 clients</b> got " + n + " extra rounds").join("\n")' > "$T/confirmed"
while IFS= read -r line; do
    [ -z "$line" ] || grep -qF "$line" "$html" || fail "report.html does not say '$line'"
done < "$T/confirmed"
if [ ! -s "$T/confirmed" ]; then
    grep -q 'no row was borderline' "$html" || fail "report.html: no rows confirmed, but not said"
fi
grep -q 'at most 2 extra rounds per row' "$T/run/report.md" || fail "report.md does not state it"

# one byte of the dataset changes: the report warns, on stderr and on the page
cp "$T/run/report.html" "$T/before.html"
sed '1s/"round":1/"round":1 /' "$T/run/runs.jsonl" > "$T/runs.new" && mv "$T/runs.new" "$T/run/runs.jsonl"
[ "$(sha256sum "$T/run/runs.jsonl" | cut -d' ' -f1)" != "$sum" ] || fail "the dataset did not change"
# judged as it is, the changed line is refused with its place; accepted, every page says so
if "$COMPARE" report "$T/run" > /dev/null 2> "$T/report.err"; then
    fail "compare report judged a changed dataset"
fi
grep -q 'runs.jsonl:1: ' "$T/report.err" || fail "the refusal does not name line 1: $(cat "$T/report.err")"
"$COMPARE" report "$T/run" --accept-modified > /dev/null 2> "$T/report.err" ||
    fail "compare report --accept-modified: $(cat "$T/report.err")"
grep -q 'modified after the run' "$T/report.err" || fail "no warning on stderr: $(cat "$T/report.err")"
grep -q 'no longer matches the SHA-256 recorded' "$html" || fail "report.html does not warn of the changed dataset"
grep -q 'The data was modified after the run' "$html" || fail "report.html does not lead with the modification"
grep -q 'The dataset no longer matches' "$T/before.html" && fail "the warning was there before the change"

assert_clean_pages run "$T/before.html" "$html"
echo "ok: dataset and source hashes match sha256sum, environment filled, mismatch reported"
