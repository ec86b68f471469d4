// A WebSocket echo server on the npm `ws` package, the real peer for `driver ws` tests.
// Usage: node ws_echo_server.js PORT [--fragment] [--ping-ms N] [--tls CERT KEY]
//   --fragment   echo each message as three fragments (first, continuation, final)
//   --ping-ms N  ping every client every N ms (the driver must answer with pongs)
//   --tls C K    wss: serve TLS with certificate file C and key file K
//   --close-after N  after echoing N messages on a connection, close it with status 1000
//                (a server's limit of requests per connection); later messages are not echoed
// Prints "listening PORT" on stderr once ready; on SIGTERM one JSON line of counters on stdout.
// `owed` counts the pings sent to a client before the last echo it was sent: a client that
// reads every echo it asked for has read those pings too, so it owes each one a pong. Pings
// sent after a client's last echo may meet a client that has finished (and closes).
'use strict';
const path = require('path');
const fs = require('fs');
const https = require('https');
const { WebSocketServer } = require(path.join(__dirname, '..', 'node_modules', 'ws'));

const port = Number(process.argv[2]);
const fragment = process.argv.includes('--fragment');
const pingIdx = process.argv.indexOf('--ping-ms');
const pingMs = pingIdx > 0 ? Number(process.argv[pingIdx + 1]) : 0;
const closeIdx = process.argv.indexOf('--close-after');
const closeAfter = closeIdx > 0 ? Number(process.argv[closeIdx + 1]) : 0;
const stats = { connections: 0, messages: 0, pings: 0, owed: 0, pongs: 0, echoed: 0 };

const tlsIdx = process.argv.indexOf('--tls');
let wss;
if (tlsIdx > 0) {
  const server = https.createServer({
    cert: fs.readFileSync(process.argv[tlsIdx + 1]),
    key: fs.readFileSync(process.argv[tlsIdx + 2]),
  });
  wss = new WebSocketServer({ server, perMessageDeflate: false });
  server.listen(port, '127.0.0.1', () => console.error('listening ' + port));
} else {
  wss = new WebSocketServer({ host: '127.0.0.1', port, perMessageDeflate: false });
  wss.on('listening', () => console.error('listening ' + port));
}
wss.on('connection', (ws) => {
  stats.connections++;
  let timer = null;
  let pings = 0;
  let owed = 0;
  let echoed = 0;
  if (pingMs > 0) {
    timer = setInterval(() => {
      stats.pings++;
      pings++;
      ws.ping(Buffer.from('pb'));
    }, pingMs);
  }
  ws.on('pong', () => stats.pongs++);
  ws.on('message', (data, isBinary) => {
    stats.messages++;
    stats.owed += pings - owed;
    owed = pings;
    if (closeAfter > 0 && echoed >= closeAfter) return;
    echoed++;
    stats.echoed++;
    if (closeAfter > 0 && echoed === closeAfter) {
      ws.send(data, { binary: isBinary });
      ws.close(1000, 'request limit');
      return;
    }
    if (!fragment || data.length < 3) {
      ws.send(data, { binary: isBinary });
      return;
    }
    const a = Math.floor(data.length / 3);
    ws.send(data.subarray(0, a), { binary: isBinary, fin: false });
    ws.send(data.subarray(a, 2 * a), { binary: isBinary, fin: false });
    ws.send(data.subarray(2 * a), { binary: isBinary, fin: true });
  });
  ws.on('close', () => timer && clearInterval(timer));
  ws.on('error', () => timer && clearInterval(timer));
});
process.on('SIGTERM', () => {
  console.log(JSON.stringify(stats));
  process.exit(0);
});
