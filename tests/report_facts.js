// Compares the facts report.md and report.html state for one dataset (issue 27): the
// completeness sentence, the driver errors, every weakness, every "N of M configurations stand
// out" sentence, the evidence note's chance for the run count, and the one-version highlight.
// usage: node report_facts.js report.md report.html   (exit 1 and a line per mismatch)
'use strict';
const fs = require('fs');
const [md, html] = process.argv.slice(2).map((p) => fs.readFileSync(p, 'utf8'));

const unescape = (s) => s.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>')
  .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
const plainMd = (s) => s.replace(/\*\*/g, '').replace(/`/g, '').trim();
let bad = 0;
const fail = (what, a, b) => { bad++; console.log(`${what}:\n  md:   ${a}\n  html: ${b}`); };

// Markdown: the list after the completeness heading, split at the weaknesses line.
const mdLines = md.split('\n');
const weakAt = mdLines.findIndex((l) => /^(What weakens this measurement:|削弱本次测量的因素：)$/.test(l));
if (weakAt < 0) fail('weaknesses heading', 'missing', '');
const mdWeak = [];
for (let i = weakAt + 2; i < mdLines.length && mdLines[i].startsWith('- '); i++)
  mdWeak.push(plainMd(mdLines[i].slice(2)));
let compAt = weakAt;
while (compAt > 0 && !/^## /.test(mdLines[compAt])) compAt--;
const mdComp = [];
for (let i = compAt + 2; i < weakAt && mdLines[i].startsWith('- '); i++)
  mdComp.push(plainMd(mdLines[i].slice(2)));

// HTML: the completeness section's items and the weaknesses list.
const sec = (html.match(/<section id="completeness">([\s\S]*?)<\/section>/) || [])[1] || '';
const [compHtml, weakHtml] = sec.split('<ul class="weak">');
const items = (s) => [...(s || '').matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) => unescape(m[1]).trim());
const htmlComp = items(compHtml), htmlWeak = items(weakHtml);

// Completeness: the first sentence (rows and runs) and the driver errors.
const first = (s) => (s || '').split(/(?<=[.。])\s*/)[0];
if (first(mdComp[0]) !== first(htmlComp[0])) fail('completeness', first(mdComp[0]), first(htmlComp[0]));
const errMd = mdComp.find((l) => /^(Driver errors|成功运行中的驱动错误)/.test(l));
const errHtml = htmlComp.find((l) => /^(Driver errors|成功运行中的驱动错误)/.test(l));
if (!errMd || errMd !== errHtml) fail('driver errors', errMd, errHtml);
// Weaknesses: the same items in the same order.
if (JSON.stringify(mdWeak) !== JSON.stringify(htmlWeak))
  fail('weaknesses', JSON.stringify(mdWeak), JSON.stringify(htmlWeak));

// Summary: every "stand out" sentence of report.md, word for word, in report.html.
const htmlText = unescape(html);
for (const m of md.matchAll(/[^\n]*?(?:configurations stand out: |个明显不同：)/g)) {
  const sentence = plainMd(m[0]).replace(/^.*?\. /, '');
  if (!htmlText.includes(sentence)) fail('stand out', sentence, 'not in report.html');
}
// Evidence: the chance for this dataset's run count.
const ev = (md.match(/(With \d+ runs a side, [^\n]*?≈ [0-9.]+\.|每方 \d+ 次运行时，[^\n]*?≈ [0-9.]+。)/) || [])[1];
if (ev && !htmlText.includes(plainMd(ev))) fail('evidence note', ev, 'not in report.html');
// One version: the row with the lowest batch P99.
const low = md.match(/(?:Lowest batch P99: |批次 P99 最低：)(.*?)[,，] [0-9.]+ µs/);
if (low && !new RegExp('(Lowest batch P99|最低批次 P99)[^<]*?' + low[1].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).test(htmlText))
  fail('lowest P99', low[1], 'not named in report.html');
if (/P50 (最低|: )/.test(md)) fail('one-version highlight', 'names P50', '');
process.exit(bad ? 1 : 0);
