// Abusive clients for the reference servers' tests (tests/integration/860-abusive-clients.sh).
// Usage: node abusive_client.js http|ws|tcp|tls PORT [IDLE]   (tls: a TLS listener)
// 1. opens IDLE (default 1000) connections that never send a byte and keeps them open;
// 2. starts a slowloris connection: one byte of a request head every 100 ms (tcp: of a
//    64-byte message, stopping one byte short; tls: of a ClientHello record);
// 3. runs the probes of the protocol one after another, each on a fresh connection: sends
//    the bad bytes and waits up to 3 s for the server to close it; prints
//    'probe NAME closed' or 'probe NAME OPEN' (and 'answered N bytes' when it replied);
// 4. prints 'probes done' and holds everything until SIGTERM, then prints
//    'idle OPEN/IDLE still open' and 'slowloris closed|open BYTES sent'.
'use strict';
const net = require('net');
const crypto = require('crypto');

const [proto, portArg, idleArg] = process.argv.slice(2);
const port = Number(portArg);
const IDLE = Number(idleArg || 1000);
const say = (s) => process.stdout.write(s + '\n');

function mask(payload) {
  const k = crypto.randomBytes(4);
  const out = Buffer.from(payload);
  for (let i = 0; i < out.length; i++) out[i] ^= k[i & 3];
  return Buffer.concat([k, out]);
}
// a client frame; len overrides the declared length, masked = false sends it unmasked
function frame(b0, payload, { masked = true, len } = {}) {
  const n = len === undefined ? payload.length : len;
  const m = masked ? 0x80 : 0;
  let h;
  if (n < 126) h = Buffer.from([b0, m | n]);
  else if (n < 65536) { h = Buffer.from([b0, m | 126, 0, 0]); h.writeUInt16BE(n, 2); }
  else { h = Buffer.alloc(10); h[0] = b0; h[1] = m | 127; h.writeBigUInt64BE(BigInt(n), 2); }
  return Buffer.concat([h, masked ? mask(payload) : payload]);
}
const WS_HEAD = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
  'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
const abc = Buffer.from('abc');

// name → [handshake first (ws), bytes]
const PROBES = {
  http: {
    'garbage': [false, Buffer.from('\x00\x01\x02 garbage garbage\r\n\r\n', 'latin1')],
    'no-version': [false, Buffer.from('GET /\r\n\r\n')],
    'bad-header': [false, Buffer.from('GET / HTTP/1.1\r\nno colon here\r\n\r\n')],
    'huge-content-length': [false, Buffer.from('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000000\r\n\r\nabc')],
    'overflow-content-length': [false, Buffer.from('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n')],
    'negative-content-length': [false, Buffer.from('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n')],
    'huge-chunk': [false, Buffer.from('POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n')],
    'huge-head': [false, Buffer.from('GET / HTTP/1.1\r\nX-Big: ' + 'a'.repeat(100000))],
  },
  ws: {
    'garbage-handshake': [false, Buffer.from('\x00\x01\x02 garbage garbage\r\n\r\n', 'latin1')],
    'handshake-no-key': [false, Buffer.from('GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n')],
    'unmasked-frame': [true, frame(0x82, abc, { masked: false })],
    'reserved-opcode': [true, frame(0x83, abc)],
    'rsv-bits': [true, frame(0xc2, abc)],
    'huge-64bit-length': [true, frame(0x82, abc, { len: 0x7fffffffffffffff })],
    'over-limit-length': [true, frame(0x82, abc, { len: 1 << 30 })],
    'long-control': [true, frame(0x89, Buffer.alloc(200))],
    'fragmented-control': [true, frame(0x09, abc)],
    'continuation-first': [true, frame(0x80, abc)],
  },
  tcp: {
    'eof-mid-message': [false, Buffer.from('0123456789')],
  },
  tls: {
    'plaintext-http': [false, Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')],
    'huge-record': [false, Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0xff, 0xff]), Buffer.alloc(64, 0x41)])],
    'data-before-handshake': [false, Buffer.from([0x17, 0x03, 0x03, 0x00, 0x05, 1, 2, 3, 4, 5])],
    'garbage-client-hello': [false, Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0x00, 0x40]), Buffer.alloc(64, 0xee)])],
  },
};

function probe(name, [hs, bytes]) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let got = 0, upgraded = !hs, head = Buffer.alloc(0), done = false;
    const finish = (what) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      say('probe ' + name + ' ' + what + (got ? ' answered ' + got + ' bytes' : ''));
      s.destroy();
      resolve();
    };
    const timer = setTimeout(() => finish('OPEN'), 3000);
    s.on('error', () => finish('closed'));
    s.on('close', () => finish('closed'));
    s.on('data', (d) => {
      if (!upgraded) {
        head = Buffer.concat([head, d]);
        const e = head.indexOf('\r\n\r\n');
        if (e < 0) return;
        if (!/^HTTP\/1\.1 101/.test(head.toString('latin1'))) return finish('handshake refused');
        upgraded = true;
        s.write(bytes);
        if (name === 'eof-mid-message') s.end();
        return;
      }
      got += d.length;
    });
    s.on('connect', () => {
      if (hs) s.write(WS_HEAD);
      else {
        s.write(bytes);
        if (name === 'eof-mid-message') s.end();
      }
    });
  });
}

async function main() {
  if (!PROBES[proto]) throw new Error('unknown protocol ' + proto);
  const idle = [];
  let idleOpen = 0;
  for (let i = 0; i < IDLE; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, IDLE - i) }, () => new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.on('connect', () => { idleOpen++; resolve(); });
      s.on('error', resolve);
      s.on('close', () => { if (s.connectedOnce) idleOpen--; });
      s.once('connect', () => { s.connectedOnce = true; });
      idle.push(s);
    })));
  }
  say('idle ' + idleOpen + ' opened');

  const slow = proto === 'tcp' ? Buffer.alloc(63, 0x61)
    : proto === 'tls' ? Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0x00, 0xc8, 0x01, 0x00, 0x00, 0xc4]), Buffer.alloc(196)])
    : Buffer.from(proto === 'ws' ? WS_HEAD : 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  let slowSent = 0, slowClosed = false;
  const sl = net.connect(port, '127.0.0.1');
  sl.on('error', () => {});
  sl.on('close', () => { slowClosed = true; });
  const slowTimer = setInterval(() => {
    if (slowClosed || slowSent >= slow.length - 1) return; // never completes the request
    sl.write(slow.subarray(slowSent, slowSent + 1));
    slowSent++;
  }, 100);

  for (const [name, p] of Object.entries(PROBES[proto])) await probe(name, p);
  say('probes done');

  process.on('SIGTERM', () => {
    clearInterval(slowTimer);
    say('idle ' + idleOpen + '/' + IDLE + ' still open');
    say('slowloris ' + (slowClosed ? 'closed' : 'open') + ' ' + slowSent + ' bytes sent');
    process.exit(0);
  });
}
main().catch((e) => { console.error(e); process.exit(1); });
