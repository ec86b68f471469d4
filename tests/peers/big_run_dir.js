// Writes a synthetic run directory (meta.json, runs.jsonl) with N configurations, two versions
// ("a", "b") and one ok run each, for the scale test (tests/integration/640-compare-scale.sh).
// Usage: node big_run_dir.js DIR N
const fs = require("fs"); const dir = process.argv[2], n = Number(process.argv[3]);
fs.mkdirSync(dir, {recursive: true});
const configs = [], lines = [];
for (let i = 0; i < n; i++) {
  const id = (0x10000000 + i).toString(16);
  const label = `tcp · ${i + 1} B · window1 · 1 client`;
  configs.push({id, label, index: i, grid: "g", params: {protocol: "tcp", payload: i + 1, duration: 1, warmup: 0}});
  for (const v of ["a", "b"]) lines.push(JSON.stringify({version: v, config: id, label, round: 1, position: v === "a" ? 1 : 2,
    pid: 1, started: "2026-12-02T00:00:00.000Z", ended: "2026-12-02T00:00:01.000Z", status: "ok", reason: null,
    result: {ops: 1000, throughput: 1000 + (i % 7), elapsed_s: 1, unit: "ops/s", latency_us: {p50: 10, p99: 20, samples: 1000},
      errors: {connect: 0, io: 0, protocol: 0, verify: 0, timeout: 0}, cpu: {user_s: 0.5, sys_s: 0.1, percent: 60}},
    client: {cpu_s: 0.6, rss_peak_kib: 1000}, server: null}));
}
// the dataset record a finished run writes: without it compare judges nothing unverified
const text = lines.join("\n") + "\n";
const sha256 = require("crypto").createHash("sha256").update(text).digest("hex");
fs.writeFileSync(dir + "/meta.json", JSON.stringify({schema: "pairbench.meta/1", versions: [{name: "a"}, {name: "b"}],
  settings: {runs: 1, warmup: 0, duration: 1}, configs, grids: [{name: "g"}],
  dataset: {file: "runs.jsonl", sha256}}));
fs.writeFileSync(dir + "/runs.jsonl", text);
