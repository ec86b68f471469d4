// gate.md and report.md state the same figures (issue 39): for every configuration of a
// two-version dataset, the throughput change and verdict in gate.md's table equal those of
// report.md's throughput table, in either language. Usage: node gate_facts.js report.md
// gate.md. Prints each disagreement; exit 1 when there is one.
'use strict';
const fs = require('fs');
const [reportPath, gatePath] = process.argv.slice(2);
const cells = (line) => line.split(' | ').map((c) => c.replace(/^\| ?| ?\|$/g, '').trim());
const report = fs.readFileSync(reportPath, 'utf8').split('\n');
const gate = fs.readFileSync(gatePath, 'utf8').split('\n');
let bad = 0;
const say = (msg) => { console.log(msg); bad = 1; };

// report.md: the table after "## Throughput and CPU" / "## 吞吐量与 CPU"
const fromReport = new Map();
let k = report.findIndex((l) => /^## (Throughput and CPU|吞吐量与 CPU)$/.test(l));
if (k < 0) say(`${reportPath}: no throughput table`);
for (k += 4; k > 3 && k < report.length && report[k].startsWith('| '); k++) {
    const c = cells(report[k]);
    // the verdict's word; an undecided one is followed by its reason in parentheses
    fromReport.set(c[0], { change: c[3], verdict: c[c.length - 1].split(/[ (（]/)[0] });
}
// gate.md: "| label | version | throughput −3.15% ~ (5%); ... | gate | chance |"
let rows = 0;
for (const line of gate) {
    if (!line.startsWith('| ') || line.startsWith('| Configuration') || line.startsWith('| 配置'))
        continue;
    const c = cells(line);
    const m = /^\S+ (\S+) (\S+) \(/.exec(c[2].split('; ')[0]);
    const want = fromReport.get(c[0]);
    rows++;
    if (!m || !want) { say(`${c[0]}: not in both (gate.md '${c[2]}')`); continue; }
    if (m[1] !== want.change) say(`${c[0]}: throughput change: gate.md ${m[1]}, report.md ${want.change}`);
    if (m[2] !== want.verdict) say(`${c[0]}: throughput verdict: gate.md ${m[2]}, report.md ${want.verdict}`);
}
if (rows !== fromReport.size) say(`gate.md has ${rows} rows, report.md ${fromReport.size}`);
process.exit(bad);
