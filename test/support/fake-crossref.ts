/**
 * A fake Crossref REST API on loopback: answers GET /works with recorded Crossref answers, records every
 * query, and can be told to misbehave (hang, 429, 500, garbage). Told a concurrency limit, it keeps it as
 * Crossref does (since December 2025: 1 in the public pool, 5 in the polite one): every answer states it
 * (`x-concurrency-limit`), and a request arriving while that many are in flight is refused with a 429.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
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
  /** The most /works requests in flight at once since the last reset. */
  readonly mostInFlight: number;
  /** The requests refused for arriving past the concurrency limit since the last reset. */
  readonly refusedInFlight: number;
  /** Holds a query's answer until the promise it returns settles (a test lines answers up); undefined: no hold. */
  hold?: (query: URLSearchParams) => Promise<unknown> | undefined;
  /** Keep a concurrency limit (undefined: none) and answer every request after `delayMs` (Crossref's latency). */
  limit(options: { inFlight?: number; delayMs?: number }): void;
  respond(responder: CrossrefResponder | undefined): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeCrossref(): Promise<FakeCrossref> {
  const requests: URLSearchParams[] = [];
  const userAgents: string[] = [];
  const arrivals: number[] = [];
  let responder: CrossrefResponder | undefined;
  let inFlight = 0;
  let mostInFlight = 0;
  let refusedInFlight = 0;
  let inFlightLimit: number | undefined;
  let delayMs = 0;

  const fake: FakeCrossref = {
    url: '',
    requests,
    userAgents,
    arrivals,
    get mostInFlight() {
      return mostInFlight;
    },
    get refusedInFlight() {
      return refusedInFlight;
    },
    limit: (options) => {
      inFlightLimit = options.inFlight;
      delayMs = options.delayMs ?? 0;
    },
    respond: (next) => {
      responder = next;
    },
    reset: () => {
      requests.length = 0;
      userAgents.length = 0;
      arrivals.length = 0;
      responder = undefined;
      mostInFlight = 0;
      refusedInFlight = 0;
      inFlightLimit = undefined;
      delayMs = 0;
      fake.hold = undefined;
    },
    close: () => listening.close(),
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const stated: Record<string, string> = inFlightLimit === undefined ? {} : { 'x-concurrency-limit': String(inFlightLimit) };
    // A request is out of flight once its answer is written (the client may ask again the moment it reads it).
    let counted = false;
    const end = () => {
      if (counted) inFlight -= 1;
      counted = false;
    };
    res.on('close', end);
    const json = (status: number, body: string, headers: Record<string, string> = {}) => {
      end();
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...stated, ...headers });
      res.end(body);
    };
    if (url.pathname !== '/works') return json(404, JSON.stringify({ status: 'error', message: 'Resource not found.' }));
    requests.push(url.searchParams);
    arrivals.push(Date.now());
    userAgents.push(req.headers['user-agent'] ?? '');
    if (inFlightLimit !== undefined && inFlight >= inFlightLimit) {
      refusedInFlight += 1;
      return json(429, JSON.stringify({ status: 'error', message: 'Too many concurrent requests' }));
    }
    inFlight += 1;
    counted = true;
    mostInFlight = Math.max(mostInFlight, inFlight);
    const answer = () => {
      if (delayMs > 0) setTimeout(() => answerWorks(url, json, res, end), delayMs);
      else answerWorks(url, json, res, end);
    };
    const held = fake.hold?.(url.searchParams);
    if (held) void held.then(answer, answer);
    else answer();
  });

  const answerWorks = (
    url: URL,
    json: (status: number, body: string, headers?: Record<string, string>) => void,
    res: ServerResponse,
    end: () => void,
  ) => {
    const answer = responder?.(url.searchParams) ?? { status: 200, body: crossrefAnswerFor(url.searchParams) };
    if (answer === 'hang') return; // never answers; the lookup's timeout must fire
    if (answer === 'rate429') {
      // Crossref's rate-limit headers, as its documentation names them.
      end();
      res.writeHead(429, { 'Content-Type': 'text/plain', 'x-rate-limit-limit': '50', 'x-rate-limit-interval': '1s' });
      return res.end('Too Many Requests');
    }
    if (answer === 'status500') return json(500, JSON.stringify({ status: 'error', message: 'Internal server error' }));
    if (answer === 'garbage') return json(200, '{"status":"ok","message":{"items": [ not json');
    if (typeof answer === 'string') return json(200, crossrefRecording(answer));
    return json(answer.status, answer.body, answer.headers);
  };
  const listening = await listenOnLoopback(server);
  fake.url = listening.url;
  return fake;
}
