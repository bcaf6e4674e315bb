/**
 * The throughput limit for this runtime: a `node:http` server that reads the request, makes the same
 * upstream GET the service would make over a keep-alive agent, and streams the answer back untouched.
 * No routing, auth, validation, parsing or logging; whatever the service does beyond this is its cost.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveCommands, usage } from '../test/support/child-process.js';

const target = process.env.BENCH_PROXY_TARGET;
if (!target) throw new Error('BENCH_PROXY_TARGET must name the upstream URL to forward to');

const agent = new Agent({ keepAlive: true });
// Hop-by-hop headers describe the upstream connection, not the answer.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const upstream = request(target, { agent, headers: { Accept: 'application/json' } }, (answer) => {
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
      }
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    upstream.end();
  });
});
server.keepAliveTimeout = 65_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

serveCommands({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, { usage });
