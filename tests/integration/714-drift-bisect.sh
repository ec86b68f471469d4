#!/bin/sh
# pairbench-test: untimed
# compare drift points to compare bisect: a history of synthetic nights (hand-made meta.json
# and summary.json, as 720 makes them) whose meta.json name one repository, its build command
# and the spec on the command line, each night a different commit. A 12% throughput step
# between nights 10 and 11 prints, in drift.md and drift.html, the `compare bisect` command
# for exactly that range (good = night 10's commit, bad = night 11's), with the repository,
# build, spec, row and metric; flat nights print none. Cost: about 2 s (no measurement).
. "$(dirname "$0")/../lib.sh"
need node
cp "$COMPARE" "$T/compare"; COMPARE=$T/compare

history() { # NAME VALUES...
    name=$1; h=$T/$1; shift
    node - "$T/nights-$name" "$@" <<'JS'
const fs = require("fs");
const [base, ...vals] = process.argv.slice(2);
vals.forEach((v, i) => {
  const day = i + 1, dir = `${base}/${day}`, tput = Number(v) * 1000;
  fs.mkdirSync(dir, {recursive: true});
  const started = `2026-10-${String(day).padStart(2, "0")}T02:00:00Z`;
  const commit = `${String(day).padStart(2, "0")}`.repeat(20);
  fs.writeFileSync(`${dir}/meta.json`, JSON.stringify({schema: "pairbench.meta/1", started,
    ended: started, command_line: ["compare", "commits", "--repo", "/src/server", "--spec", "nightly.json"],
    versions: [{name: "main", commit}],
    commits: {repo: "/src/server", build: "make -j2", trees: [{version: "main", commit}]},
    environment: {machine: "test box", cpu_model: "AMD EPYC", kernel: "6.1.0", compiler: "gcc 12"},
    configs: [{id: "a1b2c3d4", label: "tcp · 64 B · window1 · 1 clients", index: 0, params: {}}],
    dataset: {file: "runs.jsonl", sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}}));
  fs.writeFileSync(`${dir}/runs.jsonl`, "");
  const m = (x) => ({values: {main: {median: x, min: x * 0.99, max: x * 1.01, n: 5}}, vs_baseline: {}});
  fs.writeFileSync(`${dir}/summary.json`, JSON.stringify({schema: "pairbench.summary/1",
    baseline: "main", versions: ["main"], rows: [{config: "a1b2c3d4",
    label: "tcp · 64 B · window1 · 1 clients", status: "ok",
    metrics: {throughput: m(tput), cpu_efficiency: m(tput * 1.5), p50_us: m(1e6 / tput * 0.9),
              p99_us: m(1e6 / tput * 1.5), rss_mib: m(3.0)}}]}));
});
JS
    day=1
    for v in "$@"; do
        set +e
        "$COMPARE" drift --history "$h" --add "$T/nights-$name/$day" > /dev/null 2> "$T/drift.err"
        rc=$?; set -e
        [ $rc -le 1 ] || fail "drift --add night $day: exit $rc: $(cat "$T/drift.err")"
        day=$((day + 1))
    done
}
noise="100.3 99.2 100.9 99.6 100.1 98.9 100.6 99.8 100.4 99.1"
c10=$(printf '10%.0s' $(seq 20)); c11=$(printf '11%.0s' $(seq 20))

history step $noise 88.1 87.6 88.4
assert_exit 1 "$COMPARE" drift --history "$T/step" > /dev/null 2> "$T/step.err"
want="compare bisect --repo '/src/server' --good $c10 --bad $c11 --build 'make -j2' --spec 'nightly.json' --row a1b2c3d4 --metric throughput"
grep -qF "$want" "$T/step/drift.md" || { cat "$T/step/drift.md" >&2; fail "drift.md lacks the bisect command"; }
grep -q "^## Which commit" "$T/step/drift.md" || fail "drift.md lacks the Which commit heading"
grep -q "a step between night 10 (commit \`101010101010\`) and night 11 (commit \`111111111111\`)" "$T/step/drift.md" ||
    fail "drift.md does not name the nights: $(grep -A2 'Which commit' "$T/step/drift.md")"
grep -qF "<pre><code>compare bisect --repo &#39;/src/server&#39; --good $c10" "$T/step/drift.html" ||
    grep -qF "<pre><code>compare bisect --repo '/src/server' --good $c10" "$T/step/drift.html" ||
    fail "drift.html lacks the bisect command"

history flat $noise 100.2 99.7 100.5
assert_exit 0 "$COMPARE" drift --history "$T/flat" > /dev/null 2> "$T/flat.err"
! grep -q "compare bisect" "$T/flat/drift.md" || fail "flat history names a bisect"
echo ok
