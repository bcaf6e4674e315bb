/**
 * Every endpoint's upstream answers, cached once for all: `api()` hands each handler an upstream whose
 * searches go through the two-level cache, so no handler has to know about it. What is kept is the
 * upstream's JSON (the key already redacted), not the reshaped data: the reshaping is cheap, and keeping
 * its input means a fix to a reshaper applies at once to cached answers too.
 *
 * The key is the endpoint's engine and every parameter sent upstream, sorted, so two requests that differ
 * in anything the upstream sees never share an answer; `no_cache` is the one exception, as it changes only
 * whether SerpApi may answer from its own cache. Failures and empty answers are never stored (an empty
 * page may be the index's passing hiccup): neither SerpApi's "no results" answer, which carries an
 * `error`, nor an answer without the results the endpoint reads.
 */
import { config } from '../config.js';
import { isRecord } from '../reshape/values.js';
import { ROUTES } from '../routes.js';
import type { UpstreamEngine } from '../upstream/engines.js';
import { type SerpApiJson, toQuery, type Upstream } from '../upstream/serpapi.js';
import { type CacheScope, createSharedCache } from './shared.js';

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

const nonEmpty = (value: unknown) => Array.isArray(value) && value.length > 0;

/**
 * Whether an engine's answer holds what its endpoint reads as results (the lists the reshapers in
 * functions/ and lib/reshape/ count for their message): an answer without them says "No results".
 */
const HAS_RESULTS: Record<UpstreamEngine, (json: SerpApiJson) => boolean> = {
  webAlpha: (json) => nonEmpty(json.organic_results),
  webAlphaAiOverview: (json) => isRecord(json.ai_overview) && nonEmpty(json.ai_overview.text_blocks),
  webBravo: (json) => nonEmpty(json.organic_results),
  webCharlie: (json) => nonEmpty(json.organic_results),
  webDelta: (json) => nonEmpty(json.organic_results),
  news: (json) => nonEmpty(json.news_results),
  images: (json) => nonEmpty(json.images_results),
  // The TIMESERIES call answers interest_over_time; the GEO_MAP_0 and GEO_MAP calls answer by region.
  trends: (json) =>
    (isRecord(json.interest_over_time) && nonEmpty(json.interest_over_time.timeline_data)) ||
    nonEmpty(json.interest_by_region) ||
    nonEmpty(json.compared_breakdown_by_region),
  scholar: (json) => nonEmpty(json.organic_results),
  scholarCite: (json) => nonEmpty(json.citations),
  // An author's page (its articles) or one article's citation view (view_op=view_citation).
  scholarAuthor: (json) => nonEmpty(json.articles) || isRecord(json.citation),
};

/** Whether an answer is worth storing: it holds results, and is not SerpApi's "no results" `error` answer. */
export function worthKeeping(engine: UpstreamEngine, json: SerpApiJson): boolean {
  return json.error === undefined && HAS_RESULTS[engine](json);
}

/**
 * `upstream` with its searches answered from the cache where possible, for the endpoint at `path`. A
 * request with `no_cache` also asks SerpApi not to answer from its own cache (it keeps identical searches
 * for an hour), so that a bypass is fresh end to end.
 */
export function withAnswerCache(upstream: Upstream, path: string, scope: CacheScope): Upstream {
  const endpointTtl = answerTtlSeconds(path);
  return {
    ...upstream,
    search: (engine, params, options) => {
      const { answerTtlSeconds: callTtl, ...callOptions } = options ?? {};
      const sent = scope.fresh ? { ...params, no_cache: true } : params;
      const load = () => upstream.search(engine, sent, callOptions);
      const ttlSeconds = Math.min(endpointTtl, callTtl ?? endpointTtl);
      if (ttlSeconds <= 0) return load();
      return answers.remember(answerKey(engine, params), load, {
        scope,
        ttlSeconds,
        store: (json) => worthKeeping(engine, json),
      });
    },
  };
}
