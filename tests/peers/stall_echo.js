// An echo server that goes silent mid-run (tests/integration/250-driver-integrity.sh).
// Usage: node stall_echo.js STALL_MS. Echoes what each connection sends until STALL_MS
// after the first byte any connection sent, then keeps reading and never answers again
// (connections stay open). Prints the port on stdout, then 'ready'. Runs until killed.
'use strict';
const net = require('net');

const stallMs = Number(process.argv[2]);
let first = 0;
const srv = net.createServer((c) => {
  c.on('data', (d) => {
    const now = Date.now();
    if (!first) first = now;
    if (now - first < stallMs) c.write(d);
  });
  c.on('error', () => {});
});
srv.listen(0, '127.0.0.1', () => {
  console.log(srv.address().port);
  console.log('ready');
});
