// A misbehaving HTTP/2 server (cleartext, prior knowledge) for test 435, written frame by frame
// over a plain socket so it can send what a real HTTP/2 library refuses to.
// Usage: node bad_h2_server.js PORT MODE N
// It answers the first N requests (counted over all connections) with 200 and 4096 bytes, then
// every later one as MODE says:
//   truncate  HEADERS (content-length 4096), a DATA frame announcing 4096 bytes, 100 of them,
//             then FIN: the frame is cut short
//   short     HEADERS (content-length 4096), then DATA of 100 bytes with END_STREAM
//   status    500 with an empty body
//   rst       RST_STREAM INTERNAL_ERROR
//   goaway    GOAWAY PROTOCOL_ERROR with the debug data 'bad client'
//   garbage   a SETTINGS frame of 5 bytes (a connection error for the client)
// Prints 'ready' once listening. Runs until killed.
'use strict';
const net = require('net');

const [port, mode, nGood] = [Number(process.argv[2]), process.argv[3], Number(process.argv[4])];
const PREFACE = 24;
let served = 0;

function frame(type, flags, stream, payload) {
  const h = Buffer.alloc(9);
  h.writeUIntBE(payload.length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(stream, 5);
  return Buffer.concat([h, payload]);
}

// HPACK: ':status' from the static table (200 = 0x88, 500 = 0x8e), content-length as a
// literal without indexing (static name index 28).
function headers(status, clen) {
  const v = Buffer.from(String(clen));
  return Buffer.concat([Buffer.from([status === 200 ? 0x88 : 0x8e, 0x0f, 0x0d, v.length]), v]);
}

function answer(sock, id) {
  if (served++ < nGood || mode === 'good') {
    sock.write(frame(1, 4, id, headers(200, 4096)));
    sock.write(frame(0, 1, id, Buffer.alloc(4096, 0x61)));
    return;
  }
  switch (mode) {
    case 'truncate': {
      sock.write(frame(1, 4, id, headers(200, 4096)));
      const f = frame(0, 1, id, Buffer.alloc(4096, 0x61));
      sock.end(f.subarray(0, 9 + 100));
      break;
    }
    case 'short':
      sock.write(frame(1, 4, id, headers(200, 4096)));
      sock.write(frame(0, 1, id, Buffer.alloc(100, 0x61)));
      break;
    case 'status':
      sock.write(frame(1, 5, id, headers(500, 0)));
      break;
    case 'rst': {
      const p = Buffer.alloc(4);
      p.writeUInt32BE(2, 0);
      sock.write(frame(3, 0, id, p));
      break;
    }
    case 'goaway': {
      const p = Buffer.alloc(8);
      p.writeUInt32BE(0, 0);
      p.writeUInt32BE(1, 4);
      sock.end(frame(7, 0, 0, Buffer.concat([p, Buffer.from('bad client')])));
      break;
    }
    case 'garbage':
      sock.write(frame(4, 0, 0, Buffer.alloc(5)));
      break;
    default:
      throw new Error('unknown mode ' + mode);
  }
}

net.createServer((sock) => {
  let buf = Buffer.alloc(0);
  let preface = false;
  sock.on('error', () => {});
  sock.write(frame(4, 0, 0, Buffer.alloc(0))); // our SETTINGS: the defaults
  sock.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    if (!preface) {
      if (buf.length < PREFACE) return;
      buf = buf.subarray(PREFACE);
      preface = true;
    }
    while (buf.length >= 9) {
      const len = buf.readUIntBE(0, 3);
      if (buf.length < 9 + len) return;
      const type = buf[3], flags = buf[4], id = buf.readUInt32BE(5) & 0x7fffffff;
      buf = buf.subarray(9 + len);
      if (type === 4 && !(flags & 1)) sock.write(frame(4, 1, 0, Buffer.alloc(0)));
      if (type === 1 && !sock.writableEnded) answer(sock, id);
    }
  });
}).listen(port, '127.0.0.1', () => console.log('ready'));
