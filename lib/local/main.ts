/**
 * `npm start`: the local server. With no SERPAPI_API_KEY it first starts the demo upstream, which
 * answers from recorded samples, so the service runs on a fresh machine with no key and no network.
 */
import { startReplayUpstream } from './replay-upstream.js';

const env = process.env;
let upstreamLine = `SerpApi at ${env.SERPAPI_BASE_URL ?? 'https://serpapi.com'}`;
if (!env.SERPAPI_API_KEY && !env.SERPAPI_SECRET_ID) {
  const replay = await startReplayUpstream();
  env.SERPAPI_BASE_URL = replay.url;
  env.SERPAPI_API_KEY = 'demo-upstream-key';
  upstreamLine = `DEMO: recorded SerpApi answers replayed from ${replay.url} (set SERPAPI_API_KEY to call SerpApi)`;
}
if (!env.API_KEYS && !env.CLIENT_KEYS_SECRET_ID) env.API_KEYS = 'demo-key';
const clientKey = env.API_KEYS?.split(',')[0]?.trim() ?? '<your key>';

// Config is read when the handlers load, so the environment above must be settled first.
const { startLocalServer } = await import('./server.js');
const { docsPages } = await import('./docs.js');
const { url } = await startLocalServer({
  port: Number(env.PORT ?? 3000),
  host: env.HOST ?? '127.0.0.1',
  pages: await docsPages(),
});

console.log(
  [
    '',
    `Search and Citation API listening on ${url}`,
    `Upstream: ${upstreamLine}`,
    `API key:  ${env.API_KEYS ? clientKey : '(from the client key secret)'}`,
    `Docs:     ${url}/docs (OpenAPI document: ${url}/openapi.json)`,
    '',
    'Try it:',
    `  curl -s -X POST ${url}/v1/web-search/alpha -H 'Authorization: Bearer ${clientKey}' -H 'Content-Type: application/json' -d '{"q":"coffee"}'`,
    '',
  ].join('\n'),
);
