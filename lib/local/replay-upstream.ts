/**
 * The demo upstream: a loopback HTTP server that speaks SerpApi's protocol (GET /search.json?engine=…)
 * and answers from the recorded samples, so `npm start` works with no upstream key and no network.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { citeReplay } from './replay-cite.js';
import { demoAnswer } from './samples.js';

export interface ReplayUpstream {
  url: string;
  close(): Promise<void>;
}

export async function startReplayUpstream(): Promise<ReplayUpstream> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(body);
    };
    if (url.pathname !== '/search.json') return send(404, JSON.stringify({ error: 'Unknown path' }));
    if (!url.searchParams.get('api_key')) return send(401, JSON.stringify({ error: 'Invalid API key.' }));
    // Citation search: each paper's own citation only, and a page Crossref knows (replay-cite.ts).
    const answer = citeReplay(url.searchParams) ?? demoAnswer(url.searchParams);
    if (answer === undefined)
      return send(400, JSON.stringify({ error: `Unsupported engine: ${url.searchParams.get('engine')}` }));
    send(200, answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
