/**
 * Recorded DataCite REST API answers (samples/datacite/SOURCES.md) and the demo DataCite: a loopback
 * server that answers GET /dois/{doi} with the recorded record of that DOI, else DataCite's recorded 404,
 * GET /dois?ids=… with the recorded records of those DOIs, and GET /dois?query=… with the recorded records
 * whose title the query names (both in DataCite's list shape), so that `npm start` resolves an arXiv DOI and a dataset's DOI with no network. Each answer is named to
 * the demo's marking (demo-recording.ts). The tests' fake DataCite serves the same recordings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { listenAsReplay, noteReplayed } from './demo-recording.js';

const DIR = new URL('./samples/datacite/', import.meta.url);

type Json = Record<string, unknown>;
let records: Map<string, Json> | undefined;

/** The recorded records (`{ data: … }`), by lower-case DOI, read once. */
export function dataCiteRecordings(): ReadonlyMap<string, Json> {
  if (!records) {
    records = new Map();
    for (const file of readdirSync(DIR).filter((name) => name.startsWith('doi-') && name.endsWith('.json'))) {
      const answer = JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as { data: { id: string } };
      records.set(answer.data.id.toLowerCase(), answer);
    }
  }
  return records;
}

/** DataCite's recorded answer to a DOI it does not hold. */
export function dataCiteNotFound(): string {
  return readFileSync(new URL('not-found.json', DIR), 'utf8');
}

function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 2);
}

/**
 * The recorded records a /dois query names: those most of whose title words (three letters or more) the
 * query holds. Nothing is made up: a query that names no recorded title gets none.
 */
export function recordsForQuery(query: string): Json[] {
  const asked = new Set(words(query));
  return [...dataCiteRecordings().values()].filter((answer) => {
    const titles = (answer.data as { attributes?: { titles?: { title?: string }[] } }).attributes?.titles ?? [];
    const title = words(titles[0]?.title ?? '');
    return title.length > 0 && title.filter((word) => asked.has(word)).length / title.length >= 0.6;
  });
}

/** The answer to one request: status, JSON text and what it replays (for the demo's marking). */
export function dataCiteAnswerFor(path: string, query: URLSearchParams): { status: number; body: string; recordings: string[] } {
  const doi = /^\/dois\/(.+)$/.exec(path)?.[1];
  if (doi) {
    const held = dataCiteRecordings().get(decodeURIComponent(doi).toLowerCase());
    if (held) return { status: 200, body: JSON.stringify(held), recordings: [`${(held.data as Json).id} (DataCite)`] };
    return { status: 404, body: dataCiteNotFound(), recordings: ['no record (DataCite)'] };
  }
  if (path === '/dois') {
    // DataCite's lookup of several DOIs at once (`ids`): the recorded records among them; else a search.
    const ids = query.get('ids');
    const found = ids
      ? ids.split(',').flatMap((id) => {
          const held = dataCiteRecordings().get(id.trim().toLowerCase());
          return held ? [held.data as Json] : [];
        })
      : recordsForQuery(query.get('query') ?? '').map((answer) => answer.data as Json);
    // DataCite's list shape (`data`, `meta.total`), made of the recorded records.
    const body = JSON.stringify({ data: found, meta: { total: found.length }, links: {} });
    return {
      status: 200,
      body,
      recordings: found.length > 0 ? found.map((record) => `${record.id} (DataCite)`) : ['no record (DataCite)'],
    };
  }
  return { status: 404, body: dataCiteNotFound(), recordings: [] };
}

export interface ReplayDataCite {
  url: string;
  close(): Promise<void>;
}

export async function startReplayDataCite(): Promise<ReplayDataCite> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    const answer = dataCiteAnswerFor(url.pathname, url.searchParams);
    for (const recording of answer.recordings) noteReplayed(req, { recording, unrecordedPage: false });
    res.writeHead(answer.status, { 'Content-Type': 'application/vnd.api+json; charset=utf-8' });
    res.end(answer.body);
  });
  return listenAsReplay(server);
}
