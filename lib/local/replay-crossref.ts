/**
 * Recorded Crossref REST API answers (samples/crossref/SOURCES.md) and the demo Crossref: a loopback
 * server that answers GET /works from them, so that `npm start` shows DOIs, exports and resolved references
 * with no network, each answer named to the demo's marking (demo-recording.ts). The tests' fake Crossref
 * serves the same recordings.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { listenAsReplay, noteReplayed } from './demo-recording.js';

export const CROSSREF_RECORDINGS = {
  /** GET /works?query=ecology&query.author=carl+boettiger: 20 works, most by Carl Boettiger. */
  boettiger: 'works-ecology-carl-boettiger',
  /** GET /works?query=adfaaf: no work found. */
  noResults: 'works-no-results',
} as const;

export type CrossrefRecording = keyof typeof CROSSREF_RECORDINGS;

/** How the demo names what it replays (demo-recording.ts), by recording. */
export const CROSSREF_RECORDING_NAMES: Record<CrossrefRecording, string> = {
  boettiger: 'ecology, author Carl Boettiger (Crossref)',
  noResults: 'no work found (Crossref)',
};

/**
 * What the demo names as replayed for a /works query: the recording that answers it. A paper's lookup
 * (with `query.author`) that finds nothing is left unnamed: the search page it belongs to names its own
 * recording, and the paper is cited from the index's record, saying why.
 */
export function crossrefReplayedFor(query: URLSearchParams): string | undefined {
  const filter = query.get('filter') ?? '';
  if (filter.startsWith('doi:')) {
    const found = (JSON.parse(crossrefAnswerFor(query)) as { message: { items: unknown[] } }).message.items.length > 0;
    return CROSSREF_RECORDING_NAMES[found ? 'boettiger' : 'noResults'];
  }
  const recording = crossrefRecordingFor(query);
  if (recording === 'noResults' && query.get('query.author')) return undefined;
  return CROSSREF_RECORDING_NAMES[recording];
}

const texts = new Map<CrossrefRecording, string>();

/** The recorded answer's JSON text, read once. */
export function crossrefRecording(name: CrossrefRecording): string {
  let text = texts.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`./samples/crossref/${CROSSREF_RECORDINGS[name]}.json`, import.meta.url), 'utf8');
    texts.set(name, text);
  }
  return text;
}

function normalized(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

let authors: Set<string> | undefined;

/** Family names in the recording that has works: the queries it is a fair answer to. */
function recordedAuthors(): Set<string> {
  if (!authors) {
    const items = (JSON.parse(crossrefRecording('boettiger')) as { message: { items: { author?: { family?: string }[] }[] } })
      .message.items;
    authors = new Set(items.flatMap((item) => (item.author ?? []).map((person) => normalized(person.family ?? ''))));
  }
  return authors;
}

/**
 * Which recording answers a /works query: the one whose works include the queried author (or, for a
 * bibliographic query without one, an author the reference names), else the recorded empty answer.
 * Nothing is made up, so the demo shows what the service does with a real answer, a DOI where one matches
 * and the index's own data where none does.
 */
export function crossrefRecordingFor(query: URLSearchParams): CrossrefRecording {
  const author = normalized(query.get('query.author') ?? '');
  if (author) return recordedAuthors().has(author) ? 'boettiger' : 'noResults';
  const words = normalized(query.get('query.bibliographic') ?? '').split(' ');
  return words.some((word) => recordedAuthors().has(word)) ? 'boettiger' : 'noResults';
}

/**
 * The answer to a /works query as JSON text: a DOI look-up (`filter=doi:…,doi:…`) is answered with the
 * recorded works of those DOIs (the recorded answer, filtered: none when the recordings hold none), every
 * other query by its recording.
 */
export function crossrefAnswerFor(query: URLSearchParams): string {
  const filter = query.get('filter') ?? '';
  if (!filter.startsWith('doi:')) return crossrefRecording(crossrefRecordingFor(query));
  const dois = new Set(filter.split(',').map((part) => part.replace(/^doi:/, '').toLowerCase()));
  const recorded = JSON.parse(crossrefRecording('boettiger')) as { message: { items: { DOI: string }[] } };
  const items = recorded.message.items.filter((item) => dois.has(item.DOI.toLowerCase()));
  return JSON.stringify({ status: 'ok', 'message-type': 'work-list', message: { 'total-results': items.length, items } });
}

export interface ReplayCrossref {
  url: string;
  close(): Promise<void>;
}

export async function startReplayCrossref(): Promise<ReplayCrossref> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(body);
    };
    if (url.pathname !== '/works') return send(404, JSON.stringify({ status: 'error', message: 'Resource not found.' }));
    const recording = crossrefReplayedFor(url.searchParams);
    if (recording) noteReplayed(req, { recording, unrecordedPage: false });
    send(200, crossrefAnswerFor(url.searchParams));
  });
  return listenAsReplay(server);
}
