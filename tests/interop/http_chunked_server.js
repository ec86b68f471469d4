// A Node.js http server that answers every request with a chunked body (no Content-Length):
// the real peer for the driver's chunked decoding. Body: three writes of `size/3` bytes.
// Usage: node http_chunked_server.js PORT SIZE. "listening PORT" on stderr once ready; on
// SIGTERM one JSON line {"requests": N} on stdout.
'use strict';
const http = require('http');

const port = Number(process.argv[2]);
const size = Number(process.argv[3] || 3000);
let requests = 0;
const part = Buffer.alloc(Math.floor(size / 3), 'c');
const server = http.createServer((req, res) => {
  requests++;
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    res.write(part);
    res.write(part);
    res.end(part);
  });
});
server.keepAliveTimeout = 60000;
server.listen(port, '127.0.0.1', () => console.error('listening ' + port));
process.on('SIGTERM', () => {
  console.log(JSON.stringify({ requests }));
  process.exit(0);
});
