/**
 * The least a service that reshapes its upstream's answer can cost on this runtime: the bare proxy
 * (bare-proxy.ts) plus exactly the work no such service can skip, and nothing else. It parses the request
 * body, makes the same upstream GET over a keep-alive agent, reads the whole answer, decodes and parses it,
 * reshapes it with the endpoint's own reshaper (functions/web-search-alpha.ts `reshapeAlpha`), and answers
 * the success envelope as JSON. No routing, auth, validation, caches, budget, logging or metrics: the gap
 * between it and the bare proxy is the price of reshaping; the gap between the service and it is what the
 * service's own layers cost.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveCommands, usage } from '../test/support/child-process.js';

const target = process.env.BENCH_PROXY_TARGET;
if (!target) throw new Error('BENCH_PROXY_TARGET must name the upstream URL to forward to');

// Loaded after the environment is set: the module reads the service's configuration.
const { reshapeAlpha, requestSchema } = await import('../functions/web-search-alpha.js');

const agent = new Agent({ keepAlive: true });

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (chunk: Buffer) => parts.push(chunk));
  req.on('end', () => {
    // The body's defaults (page, num) come from the endpoint's schema, as the reshaper expects them.
    const body = requestSchema.parse(JSON.parse(Buffer.concat(parts).toString('utf8')));
    const upstream = request(target, { agent, headers: { Accept: 'application/json' } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const data = reshapeAlpha(json, body);
        const out = Buffer.from(JSON.stringify({ success: true, message: `${data.organic_results.length} results`, data }));
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(out.length) });
        res.end(out);
      });
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
