import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * The transport ceiling: bare node:http answering every request with a pre-built body (a list page
 * captured from the service), so the only work left is HTTP and the socket.
 * `CEILING_BODY=<file> PORT=<port> node dist/bench/ceiling.js`
 */
const body = readFileSync(process.env.CEILING_BODY ?? '');
const length = String(body.length);

createServer((_req, res) => {
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': length,
  });
  res.end(body);
}).listen(Number(process.env.PORT ?? 3002));

process.on('SIGTERM', () => process.exit(0));
