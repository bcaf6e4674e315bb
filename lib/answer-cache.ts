/**
 * Every endpoint's upstream answers, cached once for all: `api()` hands each handler an upstream whose
 * searches go through the two-level cache, so no handler has to know about it. What is kept is the
 * upstream's JSON (the key already redacted), not the reshaped data: the reshaping is cheap, and keeping
 * its input means a fix to a reshaper applies at once to cached answers too.
 *
 * The key is the endpoint's engine and every parameter sent upstream, sorted, so two requests that differ
 * in anything the upstream sees never share an answer. Answers SerpApi marks with an `error` (its "no
 * results" answer) are never stored: an empty page may be the index's passing hiccup.
 */
import { config } from './config.js';
import { ROUTES } from './routes.js';
import { type CacheScope, createSharedCache } from './shared-cache.js';
import type { UpstreamEngine } from './upstream/engines.js';
import { type SerpApiJson, toQuery, type Upstream } from './upstream/serpapi.js';

// Engines whose answers a handler caches itself, in a smaller reshaped form (citations per paper).
const CACHED_BY_HANDLER = new Set<UpstreamEngine>(['scholarCite']);

const ENDPOINT_BY_PATH = new Map(ROUTES.map((route) => [route.path, route.name]));

/** How long an endpoint's answers are kept: its own setting, else the default; 0 means not at all. */
export function answerTtlSeconds(path: string): number {
  const endpoint = ENDPOINT_BY_PATH.get(path);
  const own = endpoint === undefined ? undefined : config.ANSWER_CACHE_TTL_BY_ENDPOINT[endpoint];
  return own ?? config.ANSWER_CACHE_TTL_SECONDS;
}

const longestTtl = Math.max(config.ANSWER_CACHE_TTL_SECONDS, ...Object.values(config.ANSWER_CACHE_TTL_BY_ENDPOINT));

const answers = createSharedCache<SerpApiJson>({ name: 'answer-v1', ttlSeconds: longestTtl, memoryMax: config.SEARCH_CACHE_MAX });

/** The cache key of one upstream search: engine and every non-empty parameter, in a fixed order. */
export function answerKey(engine: UpstreamEngine, params: Parameters<Upstream['search']>[1]): string {
  const query = toQuery(engine, params);
  query.sort();
  return query.toString();
}

/** A stored answer must hold results: SerpApi's "no results" answer carries an `error` text instead. */
export function worthKeeping(json: SerpApiJson): boolean {
  return json.error === undefined;
}

/** `upstream` with its searches answered from the cache where possible, for the endpoint at `path`. */
export function withAnswerCache(upstream: Upstream, path: string, scope: CacheScope): Upstream {
  const ttlSeconds = answerTtlSeconds(path);
  if (ttlSeconds <= 0) return upstream;
  return {
    ...upstream,
    search: (engine, params, options) =>
      CACHED_BY_HANDLER.has(engine)
        ? upstream.search(engine, params, options)
        : answers.remember(answerKey(engine, params), () => upstream.search(engine, params, options), {
            scope,
            ttlSeconds,
            store: worthKeeping,
          }),
  };
}
