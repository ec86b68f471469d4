#!/usr/bin/env node
// Loads HTML files in headless Chromium and reports what a reader's browser would complain
// about, speaking the Chrome DevTools Protocol over --remote-debugging-pipe (fd 3 = commands
// in, fd 4 = replies and events out, messages NUL-separated; no port, no network). One
// browser serves every file (starting Chromium is the slow part), each file in its own tab.
//
//   node tests/html_check.js FILE.html... [--profile DIR] [--timeout-ms N] [--dom-dir DIR]
//                            [--viewport WxH]
//
// --viewport WxH lays each page out in a window of W × H CSS pixels (default Chromium's own)
// and adds "layout": {"width", "scroll_width" (wider than width: the page scrolls sideways),
// "tops": {"<section id>": its top in page pixels, ...}, "first_table": the top of the first
// table of changes (the first <table> in section "tables")}.
// --dom-dir DIR writes each page's DOM as Chromium built it (document.documentElement's
// outerHTML, like --dump-dom) to DIR/<file name>.dom.
//
// Prints one JSON object per file, one per line, in argument order:
//   {"file": "...", "errors": [...], "requests": [...], "charts": N, "metrics": [...],
//    "lang": "en", "scripts": N, "title": "...", "forest": null | {"before_charts", "width",
//    "labels", "label_min_x", "marks": [{"metric", "verdict", "fill", "cx", "lo", "hi",
//    "band"}]}}   (the forest plot's marks as laid out: coordinates from the live SVG)
// errors: console.error/assert calls, uncaught exceptions, Log domain errors (failed loads,
// CSP, ...). requests: every URL the page asked for other than the page itself and data:
// URLs (a self-contained report asks for none). Exit 0 when every file's errors and requests
// are empty, 1 when not, 2 on a harness problem (Chromium missing, timeout).
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const os = require('os');

const args = process.argv.slice(2);
const files = [];
let profile = null, timeoutMs = 60000, domDir = null, viewport = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--profile') profile = args[++i];
  else if (args[i] === '--timeout-ms') timeoutMs = parseInt(args[++i], 10);
  else if (args[i] === '--dom-dir') domDir = args[++i];
  else if (args[i] === '--viewport') {
    const m = /^([0-9]+)x([0-9]+)$/.exec(args[++i] || '');
    if (!m) { process.stderr.write(`html_check.js: --viewport '${args[i]}': expected WxH, e.g. 1400x900\n`); process.exit(2); }
    viewport = { width: +m[1], height: +m[2] };
  }
  else files.push(args[i]);
}
if (!files.length) { process.stderr.write('usage: html_check.js FILE.html... [--profile DIR] [--timeout-ms N]\n'); process.exit(2); }
const ownProfile = !profile;
if (!profile) profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-chromium-'));

const bin = process.env.CHROMIUM || 'chromium';
const chrome = spawn(bin, [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-extensions', '--disable-default-apps', '--mute-audio',
  `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });

let stderrTail = '';
chrome.stderr.on('data', d => { stderrTail = (stderrTail + d.toString()).slice(-4000); });
const toChrome = chrome.stdio[3], fromChrome = chrome.stdio[4];

let nextId = 1, inbuf = Buffer.alloc(0), finished = false;
const pending = new Map();
const results = [];
const pages = new Map(); // sessionId -> {result, url, loaded, onLoad}

function finish(code, why) {
  if (finished) return;
  finished = true;
  process.exitCode = code;
  if (why) process.stderr.write(`html_check: ${why}\n`);
  if (code !== 2) for (const r of results) process.stdout.write(JSON.stringify(r) + '\n');
  // Close the browser politely, kill it if it lingers, and only then remove the profile:
  // removing it while Chromium still writes there fails (ENOTEMPTY).
  const done = () => {
    if (ownProfile) {
      try { fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }); }
      catch (e) { process.stderr.write(`html_check: cannot remove '${profile}': ${e.message}\n`); }
    }
    process.exit(code);
  };
  if (chrome.exitCode !== null || chrome.signalCode !== null) return done();
  const killer = setTimeout(() => { try { chrome.kill('SIGKILL'); } catch (e) { /* gone */ } }, 2000);
  chrome.once('exit', () => { clearTimeout(killer); setTimeout(done, 100); });
  try { toChrome.write(JSON.stringify({ id: nextId++, method: 'Browser.close' }) + '\0'); }
  catch (e) { chrome.kill('SIGKILL'); }
}

const timer = setTimeout(() => finish(2, `timeout after ${timeoutMs} ms loading ${files.join(' ')}`), timeoutMs);
chrome.on('error', e => finish(2, `cannot start '${bin}': ${e.message}`));
chrome.on('exit', (code, sig) => {
  if (!finished) finish(2, `chromium exited early (code ${code}, signal ${sig}): ${stderrTail.trim().split('\n').slice(-3).join(' | ')}`);
});

function send(method, params = {}, sessionId) {
  const id = nextId++;
  const msg = { id, method, params };
  if (sessionId) msg.sessionId = sessionId;
  toChrome.write(JSON.stringify(msg) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
}

function onEvent(msg) {
  const p = msg.params || {};
  const page = pages.get(msg.sessionId);
  if (!page) return;
  const result = page.result;
  switch (msg.method) {
    case 'Runtime.consoleAPICalled':
      if (p.type === 'error' || p.type === 'assert') {
        result.errors.push('console.' + p.type + ': ' + (p.args || []).map(a => a.value !== undefined ? String(a.value) : (a.description || a.type)).join(' '));
      }
      break;
    case 'Runtime.exceptionThrown': {
      const d = p.exceptionDetails || {};
      result.errors.push('exception: ' + ((d.exception && d.exception.description) || d.text || 'unknown'));
      break;
    }
    case 'Log.entryAdded':
      if (p.entry && p.entry.level === 'error') result.errors.push(`log(${p.entry.source}): ${p.entry.text}${p.entry.url ? ' ' + p.entry.url : ''}`);
      break;
    case 'Network.requestWillBeSent': {
      const u = p.request && p.request.url;
      if (u && u !== page.url && !u.startsWith('data:') && u !== 'about:blank') result.requests.push(u);
      break;
    }
    case 'Page.loadEventFired':
      page.onLoad();
      break;
    default:
  }
}

fromChrome.on('data', chunk => {
  inbuf = Buffer.concat([inbuf, chunk]);
  let z;
  while ((z = inbuf.indexOf(0)) >= 0) {
    const text = inbuf.subarray(0, z).toString('utf8');
    inbuf = inbuf.subarray(z + 1);
    let msg;
    try { msg = JSON.parse(text); } catch (e) { continue; }
    if (msg.id && pending.has(msg.id)) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
      else p.resolve(msg.result);
    } else if (msg.method) {
      onEvent(msg);
    }
  }
});

async function check(file) {
  const url = 'file://' + path.resolve(file);
  const result = { file, errors: [], requests: [], charts: 0, metrics: [], lang: null, scripts: 0, title: null };
  results.push(result);
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  let onLoad;
  const loaded = new Promise(r => { onLoad = r; });
  pages.set(sessionId, { result, url, onLoad });
  await Promise.all(['Runtime.enable', 'Log.enable', 'Page.enable', 'Network.enable'].map(m => send(m, {}, sessionId)));
  if (viewport)
    await send('Emulation.setDeviceMetricsOverride', { width: viewport.width, height: viewport.height,
      deviceScaleFactor: 1, mobile: viewport.width < 600 }, sessionId);
  await send('Page.navigate', { url }, sessionId);
  await loaded;
  // let late errors (timers, deferred loads) arrive
  await new Promise(r => setTimeout(r, 300));
  const expr = `JSON.stringify({
    charts: document.querySelectorAll('svg.chart[data-metric]').length,
    metrics: Array.from(document.querySelectorAll('svg.chart[data-metric]')).map(e => e.getAttribute('data-metric')),
    lang: document.documentElement.getAttribute('lang'),
    scripts: document.querySelectorAll('script').length,
    title: document.title,
    forest: (() => {
      const s = document.querySelector('svg.forest');
      if (!s) return null;
      const first = document.querySelector('svg.chart');
      const num = (e, a) => e ? e[a].baseVal.value : null;
      const marks = Array.from(s.querySelectorAll('g.fr')).map(g => {
        const c = g.querySelector('circle.fp'), l = g.querySelector('line.fi'), b = g.querySelector('rect.fb');
        return { metric: g.getAttribute('data-change'), verdict: g.getAttribute('data-verdict'),
                 fill: c && c.getAttribute('fill'), cx: num(c, 'cx'),
                 lo: l && Math.min(num(l, 'x1'), num(l, 'x2')), hi: l && Math.max(num(l, 'x1'), num(l, 'x2')),
                 band: b && [num(b, 'x'), num(b, 'x') + num(b, 'width')] };
      });
      const boxes = Array.from(s.querySelectorAll('text.fl')).map(t => t.getBBox());
      return { before_charts: !first || !!(s.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING),
               width: s.viewBox.baseVal.width, labels: boxes.length,
               label_min_x: Math.min(...boxes.map(b => b.x)), marks };
    })(),
    layout: (() => {
      const top = e => Math.round(e.getBoundingClientRect().top + window.scrollY);
      const tops = {};
      for (const s of document.querySelectorAll('section[id]')) tops[s.id] = top(s);
      const t = document.querySelector('section#tables table');
      return { width: document.documentElement.clientWidth,
               scroll_width: document.documentElement.scrollWidth, tops,
               first_table: t ? top(t) : null };
    })() })`;
  const ev = await send('Runtime.evaluate', { expression: expr, returnByValue: true }, sessionId);
  Object.assign(result, JSON.parse(ev.result.value));
  if (domDir) {
    const dom = await send('Runtime.evaluate', { expression: 'document.documentElement.outerHTML', returnByValue: true }, sessionId);
    fs.writeFileSync(path.join(domDir, path.basename(file) + '.dom'), dom.result.value);
  }
  pages.delete(sessionId);
  await send('Target.closeTarget', { targetId });
}

async function main() {
  for (const f of files) {
    if (!fs.existsSync(f)) throw new Error(`no such file '${f}'`);
    await check(f);
  }
  clearTimeout(timer);
  finish(results.some(r => r.errors.length || r.requests.length) ? 1 : 0);
}
main().catch(e => { clearTimeout(timer); finish(2, e.message); });
