/**
 * The demo upstream: a loopback HTTP server that speaks SerpApi's protocol (GET /search.json?engine=…)
 * and answers from the recorded samples, so `npm start` works with no upstream key and no network. It
 * tells the local server which recording each answer replays (demo-recording.ts). A later page, which
 * it holds no recording of, is its recorded page again, whose next page link says more may follow: the
 * demo never says "last page" only because it has nothing more.
 */
import { createServer, type Server } from 'node:http';
import { listenAsReplay, noteReplayed, type Replayed } from './demo-recording.js';
import { citeRecording, citeReplay } from './replay-cite.js';
import { demoAnswer, recordedQuery, sampleFor } from './samples.js';

/** Whether the query asks for a later page than the first, the only one the demo holds (by each engine's offset). */
function laterPage(query: URLSearchParams): boolean {
  const offset = (name: string, first = 0) => Number(query.get(name) ?? first) > first;
  return offset('start') || offset('pn') || offset('ijn') || offset('first', 1);
}

/** What the demo's answer to this query replays, if anything (the sample for its engine, else replay-cite.ts's). */
function replayedFor(query: URLSearchParams): Replayed | undefined {
  const cite = citeRecording(query);
  const name = sampleFor(query);
  const recording = cite === undefined ? name && recordedQuery(name) : cite;
  return recording ? { recording, unrecordedPage: laterPage(query) } : undefined;
}

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
    const replayed = replayedFor(url.searchParams);
    if (replayed) noteReplayed(req, replayed);
    send(200, answer);
  });
  return listenAsReplay(server);
}
