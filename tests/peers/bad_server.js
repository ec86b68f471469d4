// Misbehaving servers for the driver's fault tests (tests/integration/850-misbehaving-servers.sh).
// Usage: node bad_server.js PROTO:MODE:N ...   (PROTO redis|http|ws|tcp)
// Each argument gets its own listener on 127.0.0.1 (a free port). The server answers the first
// N requests correctly (counted over all its connections, so a reconnect does not reset it),
// then misbehaves on every request after that:
//   close    half of the reply, then FIN
//   garbage  bytes that are not the protocol (tcp: wrong echo bytes)
//   huge     an absurd length: RESP '$99999999999', HTTP Content-Length 10^15, a WebSocket
//            frame with a 63-bit length (tcp: not applicable, treated as garbage)
//   stall    read the request, never answer
//   reset    RST (socket.resetAndDestroy) with the request unanswered
//   double   every reply twice (replies nobody asked for)
//   flood    the start of a reply that never ends (RESP '+' line, HTTP header line, a
//            WebSocket frame header, tcp echo bytes), written as fast as the client reads
// The WebSocket handshake is always answered, except in mode 'stall' with N = 0 (stalls
// right after accepting). tcp requests are --payload 64 byte messages.
// Prints 'SPEC PORT' per listener on stdout, then 'ready'. Runs until killed.
'use strict';
const net = require('net');
const crypto = require('crypto');

const TCP_MSG = 64;
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

// One complete request at the front of buf: { len, reply } or null (need more).
function redisRequest(buf) {
  let p = 0;
  const line = () => {
    const e = buf.indexOf('\r\n', p);
    if (e < 0) return null;
    const s = buf.toString('latin1', p, e);
    p = e + 2;
    return s;
  };
  const h = line();
  if (h === null) return null;
  if (h[0] !== '*') return { len: p, reply: Buffer.from('-ERR inline\r\n') };
  const n = Number(h.slice(1));
  const args = [];
  for (let i = 0; i < n; i++) {
    const b = line();
    if (b === null) return null;
    const l = Number(b.slice(1));
    if (buf.length < p + l + 2) return null;
    args.push(buf.subarray(p, p + l));
    p += l + 2;
  }
  const cmd = args[0].toString().toUpperCase();
  let reply;
  if (cmd === 'ECHO') reply = Buffer.concat([Buffer.from('$' + args[1].length + '\r\n'), args[1], Buffer.from('\r\n')]);
  else if (cmd === 'PING') reply = Buffer.from('+PONG\r\n');
  else reply = Buffer.from('+OK\r\n');
  return { len: p, reply };
}

function httpRequest(buf) {
  const e = buf.indexOf('\r\n\r\n');
  if (e < 0) return null;
  const head = buf.toString('latin1', 0, e);
  const m = /content-length:\s*(\d+)/i.exec(head);
  const len = e + 4 + (m ? Number(m[1]) : 0);
  if (buf.length < len) return null;
  return { len, reply: Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok') };
}

function wsFrame(opcode, payload, len) {
  const n = len === undefined ? payload.length : len;
  let h;
  if (n < 126) h = Buffer.from([0x80 | opcode, n]);
  else if (n < 65536) { h = Buffer.alloc(4); h[0] = 0x80 | opcode; h[1] = 126; h.writeUInt16BE(n, 2); }
  else { h = Buffer.alloc(10); h[0] = 0x80 | opcode; h[1] = 127; h.writeBigUInt64BE(BigInt(n), 2); }
  return Buffer.concat([h, payload]);
}

function wsRequest(buf) {
  if (buf.length < 2) return null;
  let n = buf[1] & 0x7f, p = 2;
  if (n === 126) { if (buf.length < 4) return null; n = buf.readUInt16BE(2); p = 4; }
  else if (n === 127) { if (buf.length < 10) return null; n = Number(buf.readBigUInt64BE(2)); p = 10; }
  const masked = buf[1] & 0x80;
  const mask = masked ? buf.subarray(p, p + 4) : null;
  if (masked) p += 4;
  if (buf.length < p + n) return null;
  const data = Buffer.from(buf.subarray(p, p + n));
  if (mask) for (let i = 0; i < n; i++) data[i] ^= mask[i & 3];
  return { len: p + n, reply: wsFrame(buf[0] & 0x0f, data) };
}

function tcpRequest(buf) {
  if (buf.length < TCP_MSG) return null;
  return { len: TCP_MSG, reply: Buffer.from(buf.subarray(0, TCP_MSG)) };
}

const GARBAGE = {
  redis: () => Buffer.from('@this is not resp\r\n'),
  http: () => Buffer.from('NOT-HTTP garbage garbage\r\n\r\n'),
  ws: () => Buffer.from([0x83, 0x02, 0x41, 0x42]), // reserved opcode 3
  tcp: (req) => Buffer.from(req.reply.map((b) => b ^ 0x5a)),
};
const HUGE = {
  redis: () => Buffer.from('$99999999999\r\nabc'),
  http: () => Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 1000000000000000\r\n\r\nabc'),
  ws: () => wsFrame(2, Buffer.from('abc'), 0x7fffffffffffffff),
  tcp: (req) => GARBAGE.tcp(req),
};
const PARSE = { redis: redisRequest, http: httpRequest, ws: wsRequest, tcp: tcpRequest };

function serve(spec, proto, mode, good, ready) {
  let answered = 0;
  const server = net.createServer((sock) => {
    sock.on('error', () => {});
    let buf = Buffer.alloc(0);
    let upgraded = proto !== 'ws';
    let dead = false;
    if (proto === 'ws' && mode === 'stall' && good === 0) return; // never answers the handshake
    sock.on('data', (d) => {
      if (dead) return;
      buf = Buffer.concat([buf, d]);
      if (!upgraded) {
        const e = buf.indexOf('\r\n\r\n');
        if (e < 0) return;
        const key = /sec-websocket-key:\s*(\S+)/i.exec(buf.toString('latin1', 0, e));
        const accept = crypto.createHash('sha1').update((key ? key[1] : '') + WS_GUID).digest('base64');
        sock.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          'Sec-WebSocket-Accept: ' + accept + '\r\n\r\n');
        buf = buf.subarray(e + 4);
        upgraded = true;
      }
      for (;;) {
        const req = PARSE[proto](buf);
        if (!req) return;
        buf = buf.subarray(req.len);
        if (answered < good) {
          answered++;
          sock.write(req.reply);
          continue;
        }
        switch (mode) {
        case 'close':
          dead = true;
          sock.end(req.reply.subarray(0, Math.max(1, req.reply.length >> 1)));
          return;
        case 'garbage':
          sock.write(GARBAGE[proto](req));
          continue;
        case 'huge':
          sock.write(HUGE[proto](req));
          dead = true; // then silent: the length can never be satisfied
          return;
        case 'stall':
          dead = true;
          return;
        case 'double':
          sock.write(req.reply);
          sock.write(req.reply);
          continue;
        case 'flood': {
          dead = true;
          const start = { redis: '+', http: 'HTTP/1.1 200 OK\r\nX-Flood: ', ws: '', tcp: '' }[proto];
          sock.write(proto === 'ws' ? Buffer.from([0x82, 0x7f, 0, 0, 0, 0, 0, 0x10, 0, 0]) : Buffer.from(start));
          const chunk = Buffer.alloc(64 * 1024, 0x61);
          const more = () => { while (!sock.destroyed && sock.write(chunk)); };
          sock.on('drain', more);
          more();
          return;
        }
        case 'reset':
          dead = true;
          sock.resetAndDestroy();
          return;
        default:
          throw new Error('unknown mode ' + mode);
        }
      }
    });
  });
  server.listen(0, '127.0.0.1', () => ready(spec + ' ' + server.address().port));
}

const specs = process.argv.slice(2);
const lines = [];
specs.forEach((spec) => {
  const [proto, mode, n] = spec.split(':');
  if (!PARSE[proto]) throw new Error('unknown protocol ' + proto);
  serve(spec, proto, mode, Number(n || 0), (line) => {
    lines.push(line);
    if (lines.length === specs.length) process.stdout.write(lines.join('\n') + '\nready\n');
  });
});
