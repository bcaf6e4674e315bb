/**
 * A fake DataCite REST API on loopback: answers GET /dois/{doi} and GET /dois?query=… as the demo DataCite
 * does (lib/local/replay-datacite.ts, recorded records), records every request, and can be told to answer
 * otherwise (a record of its own, a 429, a 500, a hang).
 */
import { createServer, type Server } from 'node:http';
import { dataCiteAnswerFor } from '../../lib/local/replay-datacite.js';
import { listenOnLoopback } from './loopback.js';

export type DataCiteAnswer = 'hang' | { status: number; body: string; headers?: Record<string, string> };

/** Decides how one request (its path and query) is answered; undefined means as the demo DataCite would. */
export type DataCiteResponder = (path: string, query: URLSearchParams) => DataCiteAnswer | undefined;

export interface FakeDataCite {
  url: string;
  /** Every request received (path and query), in order. */
  readonly requests: { path: string; query: URLSearchParams; at: number }[];
  readonly userAgents: string[];
  respond(responder: DataCiteResponder | undefined): void;
  reset(): void;
  close(): Promise<void>;
}

/** A DataCite record list answer (`{ data: [...] }`) of these records. */
export function dataCiteList(records: readonly unknown[]): DataCiteAnswer {
  return { status: 200, body: JSON.stringify({ data: records, meta: { total: records.length }, links: {} }) };
}

export async function startFakeDataCite(): Promise<FakeDataCite> {
  const requests: FakeDataCite['requests'] = [];
  const userAgents: string[] = [];
  let responder: DataCiteResponder | undefined;
  const fake: FakeDataCite = {
    url: '',
    requests,
    userAgents,
    respond: (next) => {
      responder = next;
    },
    reset: () => {
      requests.length = 0;
      userAgents.length = 0;
      responder = undefined;
    },
    close: () => listening.close(),
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({ path: url.pathname, query: url.searchParams, at: Date.now() });
    userAgents.push(req.headers['user-agent'] ?? '');
    const answer = responder?.(url.pathname, url.searchParams) ?? dataCiteAnswerFor(url.pathname, url.searchParams);
    if (answer === 'hang') return; // never answers; the lookup's timeout must fire
    res.writeHead(answer.status, {
      'Content-Type': 'application/vnd.api+json; charset=utf-8',
      ...('headers' in answer ? answer.headers : {}),
    });
    res.end(answer.body);
  });
  const listening = await listenOnLoopback(server);
  fake.url = listening.url;
  return fake;
}
