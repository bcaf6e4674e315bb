/**
 * `npm start`: the local server. With no SERPAPI_API_KEY it first starts the demo upstream, which
 * answers from recorded samples, so the service runs on a fresh machine with no key and no network.
 */
import { isRealSerpApi, SERPAPI_URL } from '../credentials/sources.js';
import { maskKey } from './mask-key.js';
import { startReplayCrossref } from './replay-crossref.js';
import { startReplayDataCite } from './replay-datacite.js';
import { startReplayUpstream } from './replay-upstream.js';

const env = process.env;
const upstreamKeySource = env.SERPAPI_SECRET_ID ? `the key from secret ${env.SERPAPI_SECRET_ID}` : 'SERPAPI_API_KEY';
const upstreamUrl = env.SERPAPI_BASE_URL || SERPAPI_URL;
let upstreamLine = isRealSerpApi(upstreamUrl)
  ? `the real SerpApi at ${upstreamUrl}, with ${upstreamKeySource}: every search is paid for`
  : `SerpApi at ${upstreamUrl}, with ${upstreamKeySource}`;
if (!env.SERPAPI_API_KEY && !env.SERPAPI_SECRET_ID) {
  const replay = await startReplayUpstream();
  env.SERPAPI_BASE_URL = replay.url;
  env.SERPAPI_API_KEY = 'demo-upstream-key';
  // Each demo answer names the recording it replays, which only a call to the demo upstream tells: no
  // answer cache unless one is asked for (replaying costs nothing).
  env.ANSWER_CACHE_TTL_SECONDS ??= '0';
  upstreamLine = `DEMO: recorded SerpApi answers replayed from ${replay.url} (set SERPAPI_API_KEY to call SerpApi)`;
  // Citations ask Crossref and DataCite: the demo answers from their recorded answers too, and says so where
  // an answer holds nothing (a DOI it has no recording of: lib/citations/resolve/resolve.ts).
  const replaysSources = !env.CROSSREF_BASE_URL && !env.DATACITE_BASE_URL;
  if (!env.CROSSREF_BASE_URL) {
    const crossref = await startReplayCrossref();
    env.CROSSREF_BASE_URL = crossref.url;
    upstreamLine += `; recorded Crossref answers from ${crossref.url}`;
  }
  if (!env.DATACITE_BASE_URL) {
    const dataCite = await startReplayDataCite();
    env.DATACITE_BASE_URL = dataCite.url;
    upstreamLine += `; recorded DataCite answers from ${dataCite.url}`;
  }
  if (replaysSources) env.DEMO_REPLAY = 'true';
  // Likewise for the records of papers and references: each answer asks the replays again, and says so.
  env.CROSSREF_CACHE_TTL_SECONDS ??= '0';
}
// A job's webhook may go to a receiver on this machine (loopback, a private address); deployed it may not.
env.JOBS_WEBHOOK_PRIVATE ??= 'allow';
const demoKey = !env.API_KEYS && !env.CLIENT_KEYS_SECRET_ID;
if (demoKey) env.API_KEYS = 'demo-key';
// The demo key is shown in full; an operator's own key only masked, as this banner often ends up in logs.
// An entry may be `name:key:daily=N`: the key is its middle part (same rule as lib/credentials/client-keys.ts).
const firstEntry = env.API_KEYS?.split(',')[0]?.trim() ?? '';
const firstKey = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}:([^:\s]+)(?::daily=\d{1,9})?$/.exec(firstEntry)?.[1] ?? firstEntry;
const shownKey = demoKey ? firstKey : maskKey(firstKey);
const clientKey = demoKey ? firstKey : '<your key>';

/** Ends the start with one line saying what to do: no stack trace for a mistake of the setup. */
function refuse(line: string): never {
  console.error(line);
  process.exit(1);
}

// Config is read when the handlers load, so the environment above must be settled first.
const loaded = await Promise.all([import('./server.js'), import('./docs.js'), import('../config.js')]).catch((error: unknown) => {
  // lib/config.ts names every bad variable and what it must be; the rest of its stack says nothing more.
  if (error instanceof Error && error.message.startsWith('Invalid configuration: ')) refuse(error.message);
  throw error;
});
const [{ startLocalServer }, { docsPages }, { config }] = loaded;
const port = Number(env.PORT ?? 3000);
const host = env.HOST ?? '127.0.0.1';
const { url } = await startLocalServer({ port, host, pages: await docsPages() }).catch((error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    refuse(`Port ${port} is in use on ${host}: stop what listens there or set PORT to a free port (PORT=${port + 1} npm start)`);
  }
  if (code === 'EACCES')
    refuse(`Port ${port} on ${host} needs privileges this process lacks: set PORT=3000 or another port above 1023`);
  if (code === 'EADDRNOTAVAIL') refuse(`HOST=${host} is no address of this machine: set HOST=127.0.0.1 or HOST=0.0.0.0`);
  throw error;
});

console.log(
  [
    '',
    `Search and Citation API listening on ${url}`,
    `Upstream: ${upstreamLine}`,
    `API key:  ${env.API_KEYS ? shownKey : `(one whose digest is in secret ${env.CLIENT_KEYS_SECRET_ID})`}`,
    `Docs:     ${url}/docs (OpenAPI document: ${url}/openapi.json)`,
    `Budget:   ${config.SEARCHES_PER_HOUR} paid searches an hour, counted ${config.BUDGET_TABLE_NAME ? `in table ${config.BUDGET_TABLE_NAME}` : 'in this process'} (POST /v1/usage shows where it stands)`,
    '',
    'Try it:',
    `  curl -s -X POST ${url}/v1/web-search/alpha -H 'Authorization: Bearer ${clientKey}' -H 'Content-Type: application/json' -d '{"q":"coffee"}'`,
    `  curl -s -X POST ${url}/v1/cite/search -H 'Authorization: Bearer ${clientKey}' -H 'Content-Type: application/json' -d '{"query":"Boettiger ecology","results":3,"export":["bibtex"]}'`,
    '',
  ].join('\n'),
);
