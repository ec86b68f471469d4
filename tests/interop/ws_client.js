// Drives pairbench's reference WebSocket server (`driver serve ws`) with the npm `ws`
// client: binary and text echo, a fragmented message, 16- and 64-bit lengths, ping/pong, a
// close handshake, and refusal of an oversized message. Exits 0 and prints "ok", or exits 1
// naming the failed step. Usage: node ws_client.js PORT BIG_BYTES OVER_LIMIT_BYTES [CA_FILE]
// (with CA_FILE: wss, the server certificate checked against that CA)
'use strict';
const fs = require('fs');
const path = require('path');
const assert = require('assert');
const WebSocket = require(path.join(__dirname, '..', 'node_modules', 'ws'));

const port = Number(process.argv[2]);
const big = Number(process.argv[3] || 100000);
const over = Number(process.argv[4] || 0);
const ca = process.argv[5] ? fs.readFileSync(process.argv[5]) : null;
const url = (ca ? 'wss' : 'ws') + '://127.0.0.1:' + port + '/';
let step = 'connect';

setTimeout(() => {
  console.error('timeout in step: ' + step);
  process.exit(1);
}, 8000).unref();

function open() {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ca ? { perMessageDeflate: false, ca } : { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function next(ws, ev) {
  return new Promise((resolve) => ws.once(ev, (...a) => resolve(a)));
}

function pattern(n) {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 7 + (i >> 8)) & 0xff;
  return b;
}

async function echo(ws, data, opts) {
  const got = next(ws, 'message');
  ws.send(data, opts);
  const [msg, isBinary] = await got;
  return [msg, isBinary];
}

async function main() {
  const ws = await open();
  step = 'binary 64 B';
  let [m, bin] = await echo(ws, pattern(64), { binary: true });
  assert.ok(bin && m.equals(pattern(64)));
  step = 'text';
  [m, bin] = await echo(ws, 'héllo wörld', { binary: false });
  assert.ok(!bin && m.toString() === 'héllo wörld');
  step = 'fragmented message';
  const got = next(ws, 'message');
  const whole = pattern(300);
  ws.send(whole.subarray(0, 100), { binary: true, fin: false });
  ws.send(whole.subarray(100, 101), { binary: true, fin: false });
  ws.send(whole.subarray(101), { binary: true, fin: true });
  [m, bin] = await got;
  assert.ok(bin && m.equals(whole), 'reassembled echo differs');
  step = '16-bit length (1000 B)';
  [m] = await echo(ws, pattern(1000), { binary: true });
  assert.ok(m.equals(pattern(1000)));
  step = '64-bit length (' + big + ' B)';
  [m] = await echo(ws, pattern(big), { binary: true });
  assert.ok(m.equals(pattern(big)));
  step = 'ping';
  const pong = next(ws, 'pong');
  ws.ping(Buffer.from('are you there'));
  const [pd] = await pong;
  assert.strictEqual(pd.toString(), 'are you there');
  step = 'many pipelined messages';
  let n = 0;
  const all = new Promise((resolve) => {
    const on = (d) => {
      assert.ok(d.equals(pattern(32 + (n % 5))));
      if (++n === 200) {
        ws.off('message', on);
        resolve();
      }
    };
    ws.on('message', on);
  });
  for (let i = 0; i < 200; i++) ws.send(pattern(32 + (i % 5)), { binary: true });
  await all;
  step = 'close handshake';
  const closed = next(ws, 'close');
  ws.close(1000, 'bye');
  const [code] = await closed;
  assert.strictEqual(code, 1000);
  if (over > 0) {
    step = 'oversized message refused';
    const w2 = await open();
    const c2 = next(w2, 'close');
    w2.send(pattern(over), { binary: true });
    const [code2] = await c2;
    assert.notStrictEqual(code2, 1000, 'oversized message was accepted');
  }
  console.log('ok');
}

main().catch((e) => {
  console.error('failed in step: ' + step + ': ' + (e && e.message));
  process.exit(1);
});
