/**
 * A fake Crossref REST API on loopback: answers GET /works with recorded Crossref answers, records every
 * query, and can be told to misbehave (hang, 429, 500, garbage).
 */
import { createServer, type Server } from 'node:http';
import { type CrossrefRecording, crossrefAnswerFor, crossrefRecording } from '../../lib/local/replay-crossref.js';
import { listenOnLoopback } from './loopback.js';

export type CrossrefAnswer =
  | CrossrefRecording
  | 'hang'
  | 'rate429'
  | 'status500'
  | 'garbage'
  | { status: number; body: string; headers?: Record<string, string> };

/** Decides how one /works query is answered; undefined means as the demo Crossref would. */
export type CrossrefResponder = (query: URLSearchParams) => CrossrefAnswer | undefined;

export interface FakeCrossref {
  url: string;
  /** Every /works query received, in order. */
  readonly requests: URLSearchParams[];
  /** The User-Agent header of every request, in order. */
  readonly userAgents: string[];
  /** When each /works request arrived (Date.now()), in order. */
  readonly arrivals: number[];
  respond(responder: CrossrefResponder | undefined): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeCrossref(): Promise<FakeCrossref> {
  const requests: URLSearchParams[] = [];
  const userAgents: string[] = [];
  const arrivals: number[] = [];
  let responder: CrossrefResponder | undefined;

  const fake: FakeCrossref = {
    url: '',
    requests,
    userAgents,
    arrivals,
    respond: (next) => {
      responder = next;
    },
    reset: () => {
      requests.length = 0;
      userAgents.length = 0;
      arrivals.length = 0;
      responder = undefined;
    },
    close: () => listening.close(),
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const json = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
      res.end(body);
    };
    if (url.pathname !== '/works') return json(404, JSON.stringify({ status: 'error', message: 'Resource not found.' }));
    requests.push(url.searchParams);
    arrivals.push(Date.now());
    userAgents.push(req.headers['user-agent'] ?? '');
    const answer = responder?.(url.searchParams) ?? { status: 200, body: crossrefAnswerFor(url.searchParams) };
    if (answer === 'hang') return; // never answers; the lookup's timeout must fire
    if (answer === 'rate429') {
      // Crossref's rate-limit headers, as its documentation names them.
      res.writeHead(429, { 'Content-Type': 'text/plain', 'x-rate-limit-limit': '50', 'x-rate-limit-interval': '1s' });
      return res.end('Too Many Requests');
    }
    if (answer === 'status500') return json(500, JSON.stringify({ status: 'error', message: 'Internal server error' }));
    if (answer === 'garbage') return json(200, '{"status":"ok","message":{"items": [ not json');
    if (typeof answer === 'string') return json(200, crossrefRecording(answer));
    return json(answer.status, answer.body, answer.headers);
  });
  const listening = await listenOnLoopback(server);
  fake.url = listening.url;
  return fake;
}
